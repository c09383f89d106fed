#!/usr/bin/env python3
"""A third trip generator, written apart from `bench make-trip` and from `othergen`, with the
habits of a phone and of a quick script rather than a careful camera model, to check that the
engine's judgement holds when the faults are drawn another way.

    pip install pillow scipy numpy
    python3 Benchmarks/thirdgen/make_trip.py --from SRC --out /tmp/tg1 --seed 7 --size 4000
    photocurate run /tmp/tg1/photos -o /tmp/tg1/out
    photocurate bench score --labels /tmp/tg1/labels.json --manifest /tmp/tg1/out/manifest.json

It writes the same `labels.json` as `bench make-trip`, with the issue's mild fault range (per
1000 px of long edge: defocus σ 0.5–1.5, smear 3–8 px, grain with luma σ 8–14; exposure 1.7–2.5
EV from the scene's), and makes its choices unlike the other two:

- 4:3 frames cut with bicubic resampling, each frame turned by up to ±0.8° and shifted by up to
  ±4 % (a hand, not a tripod); no in-camera sharpening and almost no base noise;
- defocus is half the time a Gaussian in sRGB levels, half the time a lens disc of the same σ
  (radius 2σ) in linear light; smear is a box along a line, or a ramp (the shutter closing on a
  hand still moving), in sRGB levels;
- grain is drawn per RGB channel, independently and signal-dependent (shot noise: larger in the
  mid-tones and shadows than in the highlights), scaled so that luma σ at mid-grey is the label;
- exposure is a gain in linear light with a hard clip (no shoulder), handheld jitter ±0.2 EV;
- JPEG quality drawn per file from 80–95, chroma 4:2:0 or 4:4:4; a tenth of the scenes are
  portrait frames stored on their side with orientation 8;
- two scenes in 22 have no clean frame at all.
"""
import datetime, io, math, os, random, sys

import numpy as np
from PIL import Image
from scipy import ndimage, signal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tripkit"))
import tripfiles  # noqa: E402

KINDS = tripfiles.KINDS
to_linear, to_srgb = tripfiles.srgb_to_linear, tripfiles.linear_to_srgb


def disc_kernel(radius):
    """A uniform lens disc, antialiased at its rim by 4× supersampling."""
    n = int(math.ceil(radius)) + 1
    ss = 4
    ax = (np.arange(-n * ss, (n + 1) * ss) + 0.5) / ss - 0.5 / ss
    xx, yy = np.meshgrid(ax, ax)
    inside = (xx ** 2 + yy ** 2 <= radius ** 2).astype(np.float64)
    size = 2 * n + 1
    k = inside[: size * ss, : size * ss].reshape(size, ss, size, ss).sum(axis=(1, 3))
    return k / k.sum()


def smear_kernel(length, angle, ramp):
    """A line of the given length; with `ramp` its weight falls linearly from one end."""
    size = (int(math.ceil(length)) | 1) + 2
    k = np.zeros((size, size))
    c = (size - 1) / 2
    steps = int(length * 10) + 2
    for i, t in enumerate(np.linspace(-length / 2, length / 2, steps)):
        tripfiles.splat(k, c + t * math.cos(angle), c + t * math.sin(angle), (1.0 - 0.8 * i / (steps - 1)) if ramp else 1.0)
    return k / k.sum()


def convolve(img, kern):
    return np.stack([signal.fftconvolve(img[..., c], kern, mode="same") for c in range(3)], -1)


def main():
    a = tripfiles.arguments(__doc__, "long edge (4:3 frames)", scenes=22).parse_args()
    rng = random.Random(a.seed * 7919 + 3)
    sources = tripfiles.source_names(a.src, "thirdgen")
    photos = os.path.join(a.out, "photos"); os.makedirs(photos, exist_ok=True)
    W, H = a.size, a.size * 3 // 4
    k1000 = a.size / 1000
    when = datetime.datetime(2026, 5, 2, 7, 45)
    order = sources[:]
    rng.shuffle(order)
    hopeless = set(rng.sample(range(a.scenes), min(a.hopeless, a.scenes)))
    shots = []
    for scene in range(a.scenes):
        when += datetime.timedelta(minutes=rng.uniform(8, 50))
        gps = (41.38 + scene * 0.005 + rng.uniform(-0.0005, 0.0005), 2.17 + scene * 0.002) if rng.random() < 0.85 else None
        base = dict(scene=scene, src=order[scene % len(order)], portrait=rng.random() < 0.1, gps=gps,
                    crop=(rng.uniform(0.55, 0.9), rng.random(), rng.random()), ev=rng.uniform(-0.2, 0.2))
        t = when
        for k in range(rng.randint(3, 8)):
            t += datetime.timedelta(seconds=rng.uniform(0.2, 1.5))
            if scene in hopeless:
                kind = KINDS[(scene + 2 * k) % len(KINDS)]
            else:
                kind = rng.choice(KINDS) if (k > 0 and rng.random() < 0.4) else None
            shots.append(dict(base, shot=k, when=t, kind=kind, ev=base["ev"] + rng.uniform(-0.2, 0.2),
                              dx=rng.uniform(-0.04, 0.04), dy=rng.uniform(-0.04, 0.04), turn=rng.uniform(-0.8, 0.8),
                              q=rng.randint(80, 95), sub=rng.choice((0, 2)), exif=rng.random() > 0.05,
                              seed=rng.randrange(1 << 30)))
    rng.shuffle(shots)
    labels = {"seed": a.seed, "mode": "thirdgen", "range": "mild", "exposureFaults": "scene",
              "size": f"{W}x{H}", "scenes": a.scenes, "files": {}}
    source_image = tripfiles.SourceImages(a.src)
    for i, s in enumerate(shots):
        name = f"PXL_{s['when'].strftime('%Y%m%d_%H%M%S')}{i:03d}.jpg"
        r = random.Random(s["seed"])
        img = source_image(s["src"])
        sw, sh = img.size
        fw, fh = (H, W) if s["portrait"] else (W, H)
        cw = s["crop"][0] * sw; ch = cw * fh / fw
        if ch > 0.92 * sh:
            ch = 0.92 * sh; cw = ch * fw / fh
        x0 = min(max(0, s["crop"][1] * (sw - cw) + s["dx"] * cw), sw - cw)
        y0 = min(max(0, s["crop"][2] * (sh - ch) + s["dy"] * ch), sh - ch)
        # Turn about the crop's centre, then cut: the corners stay inside the source because the
        # crop is at most 92 % of it and the turn under a degree.
        cx, cy = x0 + cw / 2, y0 + ch / 2
        turned = img.rotate(s["turn"], resample=Image.BICUBIC, center=(cx, cy))
        frame = turned.resize((fw, fh), Image.BICUBIC, box=(x0, y0, x0 + cw, y0 + ch))
        v = np.asarray(frame, np.float64) / 255.0
        kind = s["kind"]; deg = None
        if kind == "blur":
            sigma = r.uniform(0.5, 1.5)
            if r.random() < 0.5:
                v = ndimage.gaussian_filter(v, sigma=(sigma * k1000, sigma * k1000, 0))
            else:
                v = to_srgb(convolve(to_linear(v), disc_kernel(2 * sigma * k1000)))
            deg = {"kind": "blur", "strength": round(sigma, 3)}
        elif kind == "motion":
            length = r.uniform(3, 8)
            v = convolve(v, smear_kernel(length * k1000, r.uniform(0, math.pi), r.random() < 0.5))
            deg = {"kind": "motion", "strength": round(length, 3)}
        ev = s["ev"]
        if kind in ("under", "over"):
            stops = r.uniform(1.7, 2.5)
            ev += -stops if kind == "under" else stops
            deg = {"kind": kind, "strength": round(stops, 3)}
        v = to_srgb(to_linear(np.clip(v, 0, 1)) * 2.0 ** ev) * 255.0
        g = np.random.default_rng(s["seed"])
        # Shot noise: σ grows with the square root of the light, so a channel's σ at level L is
        # base·sqrt((L + 24) / 152), which is `base` at mid-grey (128) and falls off in highlights
        # only a little. Independent per channel, so luma σ is 0.668 of a channel's.
        luma = 0.6
        if kind == "noise":
            luma = r.uniform(8, 14)
            deg = {"kind": "noise", "strength": round(luma, 3), "chroma": round(luma / 0.668 * 0.62, 3)}
        per_channel = luma / 0.668
        v = v + g.normal(0, 1, v.shape) * per_channel * np.sqrt((v + 24) / 152)
        out = Image.fromarray(np.clip(v + 0.5, 0, 255).astype(np.uint8))
        orientation = 1
        if s["portrait"]:
            # Stored on its side: orientation 8 says turn the pixels 90° counter-clockwise.
            out = out.transpose(Image.ROTATE_270); orientation = 8
        kw = dict(quality=s["q"], subsampling=s["sub"])
        if s["exif"]:
            kw["exif"] = tripfiles.exif_bytes("ThirdGen", "TG Phone", s["when"], s["gps"], orientation, seconds_digits=3)
        buf = io.BytesIO()
        out.save(buf, "JPEG", **kw)
        tripfiles.save_frame(photos, labels, name, buf.getvalue(), s, deg, orientation, progress=(i + 1, len(shots)))
    # Files a trip folder really holds: cut off, empty, not a photo.
    tripfiles.finish(a.out, photos, labels, ("PXL_broken_1.jpg", "PXL_broken_2.jpg", "PXL_broken_3.jpg"), cut=2, junk=b"<html>not a photo</html>\n" * 30)


if __name__ == "__main__":
    main()
