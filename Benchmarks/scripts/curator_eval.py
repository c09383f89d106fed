#!/usr/bin/env python3
"""Scores the exhibit curator on a question set: python3 Benchmarks/scripts/curator_eval.py EXHIBIT QUESTIONS.json
(PHOTOCURATE=path/to/binary; default .build/release/photocurate). Prints misses and the counts."""
import json, os, subprocess, sys
ex=sys.argv[1]; qf=sys.argv[2]
d=json.load(open(qf))
def ask(q):
    return subprocess.run([os.environ.get("PHOTOCURATE", ".build/release/photocurate"),'exhibit','ask',ex,q],capture_output=True,text=True).stdout.strip()
ok=0;n=0
for x in d['answerable']:
    a=ask(x['q'])
    good = (x['expect'] is None and a.startswith("I don't know")) or (x['expect'] and x['expect'] in a)
    ok+=good;n+=1
    if not good: print("MISS",x['q'],'->',a)
print('answerable',ok,n)
ok=0;n=0
for x in d['unanswerable']:
    a=ask(x['q'])
    good=a.startswith("I don't know"); ok+=good;n+=1
    if not good: print("WRONG",x['q'],'->',a)
print('unanswerable',ok,n)
