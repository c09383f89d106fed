#!/usr/bin/env python3
"""Scores the exhibit curator on a question set: python3 Benchmarks/scripts/curator_eval.py EXHIBIT QUESTIONS.json
(PHOTOCURATE=path/to/binary; default .build/release/photocurate). Prints misses and the counts."""
import json, os, subprocess, sys
ex=sys.argv[1]; qf=sys.argv[2]
d=json.load(open(qf))
# All questions go to one process, one per line.
qs=[x['q'] for x in d['answerable']]+[x['q'] for x in d['unanswerable']]
out=subprocess.run([os.environ.get("PHOTOCURATE", ".build/release/photocurate"),'exhibit','ask',ex,'-'],input="\n".join(qs)+"\n",capture_output=True,text=True).stdout.split("\n")
answers=dict(zip(qs,out))
def ask(q):
    return answers[q].strip()
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
