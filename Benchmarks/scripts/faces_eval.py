#!/usr/bin/env python3
"""Score runs over the sets of `faces-heldout-sets` (or faces-dev) against their labels.

usage: faces_eval.py LABELS.json RUN_DIR [RUN_DIR ...]
A RUN_DIR whose set name holds "rot" is scored for sideways photos: `suggestedRotation`
right for each turned copy of a photo with a face (file NAME-rDEG: the turn that stands
it up is 360 - DEG). Any other is scored for detection: a labelled face is found when a
detected box overlaps it with IoU >= 0.3 (the labels are loose), one box per face;
boxes that match no label are "extra" (a label set may leave faces out).
"""
import json, os, sys

FACELESS = ['IceBlock', 'Threshold_inRange', 'left01']  # faces-dev's photos without a face

def iou(a, b):
    iw = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    ih = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    i = iw * ih
    return i / (a[2] * a[3] + b[2] * b[3] - i + 1e-12)

def photos(run):
    for p in json.load(open(os.path.join(run, 'manifest.json')))['photos']:
        base = os.path.splitext(os.path.basename(p['relativePath']))[0]
        faces = ((p.get('analyses') or {}).get('faces') or {}).get('faces') or []
        yield base, p, [f['box'] for f in faces]

def main():
    labels = json.load(open(sys.argv[1]))
    for run in sys.argv[2:]:
        if 'rot' in os.path.basename(run.rstrip('/')):
            right = n = 0
            for base, p, _ in photos(run):
                name, deg = base.rsplit('-r', 1)
                if any(k in name for k in FACELESS): continue
                n += 1
                right += p.get('suggestedRotation') == (360 - int(deg)) % 360
            print(f'{run}: sideways right {right} / {n}')
            continue
        found = missed = extra = 0
        where = set()
        for base, p, boxes in photos(run):
            if base not in labels: continue
            used = set()
            for l in labels[base]:
                j = max(range(len(boxes)), key=lambda j: iou(l, boxes[j]), default=None)
                if j is not None and j not in used and iou(l, boxes[j]) >= 0.3:
                    found += 1; used.add(j)
                else:
                    missed += 1; where.add(base)
            extra += len(boxes) - len(used)
        print(f'{run}: found {found} / {found + missed}, extra {extra}' + (f'; missed in {", ".join(sorted(where))}' if where else ''))

if __name__ == '__main__':
    main()
