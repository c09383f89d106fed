#!/usr/bin/env python3
"""Bursts with a blink, made from real photos of people, to check that selection
never picks the frame where someone's eyes are closed.

For each labelled face with open eyes in ../shared/faces-dev (medium or large), one
burst of three frames of the same photo, 1 s apart (EXIF DateTimeOriginal; bursts
10 minutes apart):

  a-blink  the photo as it is, except that the chosen face's eyes are closed: each
           eye is covered with the skin just under it (feathered) and a dark lash
           line is drawn along the lid. Otherwise untouched, so it is the SHARPEST.
  b-open   eyes open, Gaussian blur sigma 0.5 px (a slightly softer frame).
  c-open   eyes open, sigma 0.9 px.

A person picks b. Eye positions come from a photocurate run on the originals
(faces.mesh.points). Needs Pillow and exiftool.

usage: blink_bursts.py MANIFEST_OF_FACES_DEV OUTDIR
"""
import json, math, os, subprocess, sys
from PIL import Image, ImageDraw, ImageFilter

LABELS = json.load(open(os.path.join(os.path.dirname(__file__), '../../../shared/faces-dev/labels.json')))


def iou(a, b):
    ax, ay, aw, ah = a; bx, by, bw, bh = b
    ix = max(0, min(ax + aw, bx + bw) - max(ax, bx)); iy = max(0, min(ay + ah, by + bh) - max(ay, by))
    u = aw * ah + bw * bh - ix * iy
    return ix * iy / u if u > 0 else 0


def close_eye(im, corner_a, corner_b):
    """Skin from below the eye, pasted over it through a feathered ellipse, and a lash line."""
    (x0, y0), (x1, y1) = corner_a, corner_b
    w = math.hypot(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rw, rh = 0.75 * w, 0.45 * w
    box = (int(cx - rw), int(cy - rh), int(cx + rw), int(cy + rh))
    drop = int(0.95 * w)
    skin = im.crop((box[0], box[1] + drop, box[2], box[3] + drop))
    mask = Image.new('L', skin.size, 0)
    ImageDraw.Draw(mask).ellipse((0, 0, skin.size[0] - 1, skin.size[1] - 1), fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(max(1, 0.12 * w)))
    im.paste(skin, box[:2], mask)
    # The closed lid's lash line: a slight downward arc through the eye's middle.
    d = ImageDraw.Draw(im)
    pts = [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t + 0.12 * w * math.sin(math.pi * t)) for t in [i / 12 for i in range(13)]]
    d.line(pts, fill=(40, 30, 30), width=max(1, int(round(0.07 * w))))
    # A drawn line is crisper than any lash the lens gave: soften the patch to the photo's own detail.
    region = (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2)
    im.paste(im.crop(region).filter(ImageFilter.GaussianBlur(max(0.8, 0.04 * w))), region[:2])


def main(manifest, out):
    m = json.load(open(manifest))
    os.makedirs(out, exist_ok=True)
    n = 0
    for p in m['photos']:
        lab = LABELS.get(p['relativePath'])
        if not lab: continue
        W0, H0 = lab['width'], lab['height']
        for f in (p.get('analyses') or {}).get('faces', {}).get('faces', []):
            box = [f['box'][0] * W0, f['box'][1] * H0, f['box'][2] * W0, f['box'][3] * H0]
            match = [l for l in lab['faces'] if iou(box, l['bbox_approx']) >= 0.3]
            if not match or match[0]['eyes'] != 'open' or match[0]['size'] == 'small' or match[0]['pose'] == 'profile': continue
            pts = (f.get('mesh') or {}).get('points')
            if not pts or min(W0, H0) < 200: continue
            n += 1
            name = '%02d-%s' % (n, os.path.splitext(os.path.basename(p['path']))[0])
            base = Image.open(p['path']).convert('RGB')
            P = lambda i: (pts[2 * i] * W0, pts[2 * i + 1] * H0)
            blink = base.copy()
            close_eye(blink, P(0), P(1)); close_eye(blink, P(4), P(5))
            d = os.path.join(out, name); os.makedirs(d, exist_ok=True)
            frames = [('a-blink', blink), ('b-open', base.filter(ImageFilter.GaussianBlur(0.5))),
                      ('c-open', base.filter(ImageFilter.GaussianBlur(0.9)))]
            for k, (tag, im) in enumerate(frames):
                path = os.path.join(d, tag + '.jpg')
                im.save(path, quality=95)
                subprocess.run(['exiftool', '-q', '-overwrite_original', '-DateTimeOriginal=2024:06:01 %02d:%02d:%02d' % (8 + n // 6, (n % 6) * 10, k), path], check=True)
    print('%d bursts in %s' % (n, out))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
