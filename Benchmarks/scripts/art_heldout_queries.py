#!/usr/bin/env python3
"""Held-out phrasings for art search, scored against a catalog made by `bench make-art-catalog`.

    python3 Benchmarks/scripts/art_heldout_queries.py CATALOG_DIR [BINARY]

The 13 phrasings were written after the parser and weights were chosen and were
not used to tune them. Precision of the possible: right / min(10, relevant).
"""
import json, os, subprocess, sys, tempfile
cat = sys.argv[1]
BIN = sys.argv[2] if len(sys.argv) > 2 else '.build/release/photocurate'
CACHE = os.path.join(tempfile.gettempdir(), 'art-heldout-queries.sqlite')
t=json.load(open(cat+'/truth.json'))['artworks']
Q=[("something in shades of blue", lambda x:'blue' in x['families']),
   ("a crimson piece", lambda x:'red' in x['families']),
   ("cheerful yellow canvas", lambda x:'yellow' in x['families']),
   ("mostly teal", lambda x:'teal' in x['families']),
   ("tall artwork", lambda x:x['orientation']=='portrait'),
   ("wide panoramic canvas", lambda x:x['orientation']=='landscape'),
   ("pieces below 400 dollars", lambda x:x['price']<=400),
   ("at least 3000 eur", lambda x:x['price']>=3000),
   ("sunny bright painting", lambda x:x['meanL']>=60),
   ("deep dark canvas", lambda x:x['meanL']<=40),
   ("purple abstract under 1000", lambda x:'purple' in x['families'] and x['abstract'] and x['price']<=1000),
   ("huge orange statement piece", lambda x:'orange' in x['families'] and x['sizeClass'] in ('large','oversized')),
   ("not blue, bright and square", lambda x:'blue' not in x['families'] and x['meanL']>=60 and x['orientation']=='square'),
]
tot=[]
for q,ok in Q:
    r=json.loads(subprocess.run([BIN, 'art', 'search', cat, q, '--json', '--limit', '10', '--cache', CACHE],capture_output=True,text=True).stdout)
    ids=[x['artworkId'] for x in r['results']]
    rel=sum(1 for v in t.values() if ok(v))
    right=sum(1 for i in ids if ok(t[i]))
    p=right/min(10,rel) if rel else 1
    tot.append(p)
    print(f"{p:.2f} ({right}/{min(10,rel)}, {rel} relevant)  {q}   unrecognised={r['criteria'].get('unrecognised')}")
print("mean", sum(tot)/len(tot))
