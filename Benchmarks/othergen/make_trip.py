#!/usr/bin/env python3
"""A second trip generator, written apart from `photocurate bench make-trip`, to check
that the engine's judgement is not tuned to one generator's habits.

    pip install pillow scipy numpy
    python3 Benchmarks/othergen/make_trip.py --from SRC --out /tmp/og1 --seed 7 --size 4000
    photocurate run /tmp/og1/photos -o /tmp/og1/out
    photocurate bench score --labels /tmp/og1/labels.json --manifest /tmp/og1/out/manifest.json

It writes the same `labels.json` as `bench make-trip`, with the issue's mild fault range
(per 1000 px of long edge: defocus σ 0.5–1.5, smear 3–8 px, grain σ 8–14 with chroma
σ 3–5; exposure 1.7–2.5 EV from the scene's), but makes every choice differently:

- 3:2 frames, cut with Lanczos from a float box (sub-pixel shifts, zoom ±2 %, no turn);
- blur and smear in linear light (a lens blurs light, not sRGB levels); the smear is an
  anti-aliased line at any angle, convolved by FFT;
- exposure in linear light with a highlight shoulder (clipping only past it), handheld
  jitter ±0.3 EV;
- every frame gets in-camera sharpening (unsharp mask) and base-ISO sensor noise σ 0.8–2,
  drawn in YCbCr; grain is added there too, luma and chroma independent;
- Pillow's libjpeg at quality 92 with 4:2:0 chroma, EXIF written by Pillow; a tenth of
  the scenes are portrait frames stored on their side with orientation 6;
- two scenes in 24 have no clean frame at all, so a top 20 has no excuse for a fault.
"""
import datetime, io, math, os, random, sys

import numpy as np
from PIL import Image, ImageFilter
from scipy import ndimage, signal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tripkit"))
import tripfiles  # noqa: E402

KINDS = tripfiles.KINDS
srgb_to_linear, linear_to_srgb = tripfiles.srgb_to_linear, tripfiles.linear_to_srgb


def shoulder(v, knee=0.8):
    """Linear up to the knee, then a soft roll-off to 1; past ~1.6 it clips."""
    over = np.maximum(v - knee, 0)
    return np.where(v <= knee, v, knee + (1 - knee) * (1 - np.exp(-over / (1 - knee))))


def motion_kernel(length, angle):
    size = int(math.ceil(length)) | 1
    size += 2
    k = np.zeros((size, size), np.float64)
    c = (size - 1) / 2
    steps = int(length * 8) + 1
    for t in np.linspace(-length / 2, length / 2, steps):
        tripfiles.splat(k, c + t * math.cos(angle), c + t * math.sin(angle))
    return k / k.sum()


def to_ycc(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    return y, -0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b


def from_ycc(y, cb, cr):
    return np.stack([y + 1.402 * cr, y - 0.344136 * cb - 0.714136 * cr, y + 1.772 * cb], -1)


def main():
    ap = tripfiles.arguments(__doc__, "long edge (3:2 frames)", scenes=24)
    ap.add_argument("--quality", type=int, default=92)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    nrng = np.random.default_rng(a.seed)
    sources = tripfiles.source_names(a.src, "make_trip")
    photos = os.path.join(a.out, "photos"); os.makedirs(photos, exist_ok=True)
    W, H = a.size, a.size * 2 // 3
    k1000 = a.size / 1000
    day = datetime.datetime(2025, 9, 14, 8, 30)
    shots = []
    order = sources[:]
    rng.shuffle(order)
    hopeless = set(rng.sample(range(a.scenes), min(a.hopeless, a.scenes)))
    for scene in range(a.scenes):
        src = order[scene % len(order)]
        day += datetime.timedelta(minutes=rng.uniform(12, 45))
        portrait = rng.random() < 0.1
        n = rng.randint(3, 7)
        gps = (48.85 + scene * 0.004 + rng.uniform(-0.001, 0.001), 2.35 + scene * 0.003) if rng.random() < 0.8 else None
        crop = (rng.uniform(0.5, 0.85), rng.uniform(0, 1), rng.uniform(0, 1))
        scene_ev = rng.uniform(-0.3, 0.3)
        t = day
        for k in range(n):
            t += datetime.timedelta(seconds=rng.uniform(0.3, 2.0))
            if scene in hopeless:
                kind = KINDS[(scene + k) % len(KINDS)]
            else:
                kind = rng.choice(KINDS) if (k > 0 and rng.random() < 0.45) else None
            shots.append(dict(scene=scene, shot=k, src=src, portrait=portrait, gps=gps, crop=crop,
                              ev=scene_ev + rng.uniform(-0.3, 0.3), dx=rng.uniform(-0.02, 0.02), dy=rng.uniform(-0.02, 0.02),
                              zoom=rng.uniform(0.98, 1.02), when=t, kind=kind, exif=rng.random() > 0.05,
                              base_noise=rng.uniform(0.8, 2.0), seed=rng.randrange(1 << 30)))
    rng.shuffle(shots)
    labels = {"seed": a.seed, "mode": "othergen", "range": "mild", "quality": a.quality, "exposureFaults": "scene",
              "size": f"{W}x{H}", "scenes": a.scenes, "files": {}}
    source_image = tripfiles.SourceImages(a.src)
    for i, s in enumerate(shots):
        name = f"DSC{i + 1:05d}.JPG"
        r = random.Random(s["seed"])
        img = source_image(s["src"])
        sw, sh = img.size
        fw, fh = (H, W) if s["portrait"] else (W, H)
        aspect = fw / fh
        cw = s["crop"][0] * sw
        ch = cw / aspect
        if ch > 0.95 * sh:
            ch = 0.95 * sh; cw = ch * aspect
        cw /= s["zoom"]; ch /= s["zoom"]
        x0 = min(max(0, s["crop"][1] * (sw - cw) + s["dx"] * cw), sw - cw)
        y0 = min(max(0, s["crop"][2] * (sh - ch) + s["dy"] * ch), sh - ch)
        frame = img.resize((fw, fh), Image.LANCZOS, box=(x0, y0, x0 + cw, y0 + ch))
        lin = srgb_to_linear(np.asarray(frame, np.float32) / 255.0)
        kind = s["kind"]; deg = None
        if kind == "blur":
            sigma = r.uniform(0.5, 1.5)
            lin = ndimage.gaussian_filter(lin, sigma=(sigma * k1000, sigma * k1000, 0))
            deg = {"kind": "blur", "strength": round(sigma, 3)}
        elif kind == "motion":
            length = r.uniform(3, 8)
            kern = motion_kernel(length * k1000, r.uniform(0, math.pi))
            lin = np.stack([signal.fftconvolve(lin[..., c], kern, mode="same") for c in range(3)], -1)
            deg = {"kind": "motion", "strength": round(length, 3)}
        ev = s["ev"]
        if kind in ("under", "over"):
            stops = r.uniform(1.7, 2.5)
            ev = s["ev"] - stops if kind == "under" else s["ev"] + stops
            deg = {"kind": kind, "strength": round(stops, 3)}
        lin = shoulder(lin * (2.0 ** ev))
        v = linear_to_srgb(lin) * 255.0
        # In-camera sharpening, then the sensor's own noise, drawn in YCbCr.
        sharpened = Image.fromarray(np.clip(v, 0, 255).astype(np.uint8)).filter(ImageFilter.UnsharpMask(radius=1.2, percent=60, threshold=2))
        v = np.asarray(sharpened, np.float32)
        y, cb, cr = to_ycc(v)
        g = np.random.default_rng(s["seed"])
        luma_sigma, chroma_sigma = s["base_noise"], s["base_noise"] * 0.6
        if kind == "noise":
            luma_sigma = r.uniform(8, 14); chroma_sigma = r.uniform(3, 5)
            deg = {"kind": "noise", "strength": round(luma_sigma, 3), "chroma": round(chroma_sigma, 3)}
        y = y + g.normal(0, luma_sigma, y.shape)
        cb = cb + g.normal(0, chroma_sigma, cb.shape); cr = cr + g.normal(0, chroma_sigma, cr.shape)
        out = Image.fromarray(np.clip(from_ycc(y, cb, cr) + 0.5, 0, 255).astype(np.uint8))
        orientation = 1
        if s["portrait"]:
            # Stored on its side: the pixels turned back, EXIF says turn them 90° clockwise.
            out = out.transpose(Image.ROTATE_90); orientation = 6
        buf = io.BytesIO()
        kw = dict(quality=a.quality, subsampling=2)
        if s["exif"]:
            kw["exif"] = tripfiles.exif_bytes("OtherGen", "OG-%d" % (s["scene"] % 3), s["when"], s["gps"], orientation, subsec=True)
        out.save(buf, "JPEG", **kw)
        tripfiles.save_frame(photos, labels, name, buf.getvalue(), s, deg, orientation, progress=(i + 1, len(shots)))
    # Files a trip folder really holds: cut off, empty, not a photo.
    tripfiles.finish(a.out, photos, labels, ("DSC90001.JPG", "DSC90002.JPG", "DSC90003.JPG"), cut=3, junk=b"not a photo\n" * 40)


if __name__ == "__main__":
    main()
