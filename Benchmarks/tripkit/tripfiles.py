"""What the Python trip generators (`othergen`, `thirdgen`) share: the fault kinds, the sRGB curve, an
anti-aliased point for smear kernels, the command line, a frame's EXIF, the bad files a trip folder
really holds, and `labels.json` in the format that `photocurate bench score` reads. How each
generator makes its faults and frames stays in its own file.

    import tripfiles
    a = tripfiles.arguments(__doc__, "long edge (4:3 frames)", scenes=22).parse_args()
    kw["exif"] = tripfiles.exif_bytes("ThirdGen", "TG Phone", when, gps, orientation)
    tripfiles.save_frame(photos, labels, name, jpeg_bytes, shot, degradation, orientation, progress=(1, 120))
    tripfiles.finish(a.out, photos, labels, ("b1.jpg", "b2.jpg", "b3.jpg"), cut=2, junk=b"not a photo")
"""
import argparse, json, math, os, sys

import numpy as np

# The fault kinds, as `labels.json` names them.
KINDS = ["blur", "motion", "under", "over", "noise"]


def srgb_to_linear(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(v):
    v = np.clip(v, 0, 1)
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * np.power(v, 1 / 2.4) - 0.055)


def splat(k, x, y, weight=1.0):
    """Adds `weight` at the sub-pixel point (x, y) of kernel `k`, shared bilinearly among its four
    neighbours (those inside `k`): how a smear kernel's line is drawn anti-aliased."""
    x0, y0 = int(math.floor(x)), int(math.floor(y))
    fx, fy = x - x0, y - y0
    for dx, dy, f in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        if 0 <= x0 + dx < k.shape[1] and 0 <= y0 + dy < k.shape[0]:
            k[y0 + dy, x0 + dx] += weight * f


def arguments(doc, size_help, scenes):
    """The options every generator takes; a generator adds its own to the parser returned."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--from", dest="src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=4000, help=size_help)
    ap.add_argument("--scenes", type=int, default=scenes)
    ap.add_argument("--hopeless", type=int, default=2, help="scenes with no clean frame")
    return ap


def exif_bytes(make, model, when, gps, orientation, subsec=False, seconds_digits=4):
    """EXIF with camera, orientation, capture time (and its hundredths with `subsec`) and, given
    (lat, lon), GPS in degrees, minutes and seconds rounded to `seconds_digits`."""
    from PIL import Image
    ex = Image.Exif()
    ex[0x010F] = make
    ex[0x0110] = model
    ex[0x0112] = orientation
    ifd = ex.get_ifd(0x8769)
    stamp = when.strftime("%Y:%m:%d %H:%M:%S")
    ifd[0x9003] = stamp
    ifd[0x9004] = stamp
    if subsec:
        ifd[0x9291] = "%02d" % (when.microsecond // 10000)
    if gps:
        lat, lon = gps
        g = ex.get_ifd(0x8825)

        def dms(v):
            v = abs(v); d = int(v); m = int((v - d) * 60); s = (v - d - m / 60) * 3600
            return (float(d), float(m), round(s, seconds_digits))
        g[1] = "N" if lat >= 0 else "S"; g[2] = dms(lat)
        g[3] = "E" if lon >= 0 else "W"; g[4] = dms(lon)
    return ex.tobytes()


def source_names(folder, prog):
    """The JPEG and PNG files of a source folder, sorted; exits with a message when there is none."""
    if not os.path.isdir(folder):
        raise SystemExit(f"{prog}: {folder} is not a folder")
    names = sorted(f for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg", ".png")))
    if not names:
        raise SystemExit(f"{prog}: no JPEG or PNG in {folder}")
    return names


class SourceImages:
    """A source folder's photographs as RGB, the last one kept: shots come in any order, and a
    12 MP source decoded again for every frame would double a trip's time."""

    def __init__(self, folder):
        self.folder, self.name, self.image = folder, None, None

    def __call__(self, name):
        if name != self.name:
            from PIL import Image
            self.name, self.image = name, Image.open(os.path.join(self.folder, name)).convert("RGB")
        return self.image


def save_frame(photos, labels, name, data, shot, deg, orientation, progress):
    """Writes a frame's JPEG bytes, labels it from its shot (scene, shot, src, exif, gps, when) and
    says so on stderr (`progress`: this frame's number and the count)."""
    with open(os.path.join(photos, name), "wb") as f:
        f.write(data)
    labels["files"][name] = {"scene": shot["scene"], "burst": shot["scene"], "shot": shot["shot"], "source": shot["src"],
                             "degradation": deg, "has_exif": shot["exif"], "has_gps": bool(shot["exif"] and shot["gps"]),
                             "orientation": orientation if shot["exif"] else 1, "corrupt": False,
                             "capture_time": shot["when"].strftime("%Y:%m:%d %H:%M:%S") if shot["exif"] else None}
    print(f"{progress[0]}/{progress[1]} {name} scene {shot['scene']} {deg['kind'] if deg else 'clean'}", file=sys.stderr)


def finish(out, photos, labels, names, cut, junk):
    """Adds the files a trip folder really holds (`names`: the first frame cut to 1/`cut`, an empty
    file, `junk` that is no photo), labels them corrupt, drops labels' empty values and writes
    `labels.json`."""
    first = sorted(labels["files"])[0]
    data = open(os.path.join(photos, first), "rb").read()
    for name, body, why in zip(names, (data[: len(data) // cut], b"", junk), ("truncated", "empty", "not an image")):
        with open(os.path.join(photos, name), "wb") as f:
            f.write(body)
        labels["files"][name] = {"has_exif": False, "has_gps": False, "orientation": 1, "corrupt": True, "corruption": why}
    for v in labels["files"].values():
        for key in [k for k, x in v.items() if x is None]:
            del v[key]
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1, sort_keys=True)
    print(f"wrote {len(labels['files']) - len(names)} photos and {len(names)} bad files to {photos}", file=sys.stderr)
