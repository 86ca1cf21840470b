"""Colour management for the print-on-demand file: sRGB design colours and images to the press's CMYK.

The cards are designed in sRGB (hex colours in the template, RGB art). A press prints
CMYK on a known paper, so every colour of the print-on-demand PDF goes through an ICC
profile with LittleCMS (Pillow's ImageCms), not a naive formula:

- the press: ISO Coated v2 300% (basICColor), the FOGRA39 condition (ISO 12647-2 sheet-fed
  offset on coated paper) with total ink already limited to 300 %; vendored in
  ``forge/assets/icc`` from Debian's ``scribus-data`` (zlib licence, see ATTRIBUTION.md);
- the source: Pillow's built-in sRGB profile;
- vector colours (fills, strokes, gradient stops, icons) use relative colorimetric with
  black-point compensation: colours inside the press gamut print as designed, the others
  are clipped to its edge, and the design's darkest colour maps to the press's darkest;
- images use the perceptual intent, which compresses an image's whole gamut smoothly
  instead of flattening detail in saturated areas;
- dark neutral text (the design's ink, the flavour text's grey) prints with black ink
  only, at the K tint of the same lightness: small type built from four inks blurs on a
  press whenever the plates are a hair out of register;
- total ink is clamped to ``MAX_INK`` after conversion, taking the excess off cyan,
  magenta and yellow (never black), in case a profile or rounding goes over it.

Conversions are cached per colour and per process: a card set uses a few hundred colours.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

PROFILE_DIR = Path(__file__).resolve().parent.parent / "assets" / "icc"
PRESS_PROFILE = PROFILE_DIR / "ISOcoated_v2_300_bas.icc"
#: What the output intent says: the characterisation the profile is made for, and the profile itself.
PRESS_CONDITION = "FOGRA39"
PRESS_REGISTRY = "http://www.color.org"
PRESS_INFO = "ISO Coated v2 300% (basICColor), ISO 12647-2:2004 sheet-fed offset, coated paper (FOGRA39L)"
#: Total area coverage a press sheet takes without set-off (C + M + Y + K, 1.0 = 100 %).
MAX_INK = 3.0
#: Text whose colour is at most this chroma (CIELAB a*b*) and this dark prints in black ink only.
NEUTRAL_CHROMA = 10.0
DARK_LIGHTNESS = 50.0

#: LittleCMS intents (ICC numbering) and black-point compensation, see the module doc.
PERCEPTUAL, RELATIVE = 0, 1


def _hex_rgb8(value: str) -> tuple[int, int, int]:
    v = value.lstrip("#")
    if len(v) == 3:
        v = "".join(c * 2 for c in v)
    return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)


@lru_cache(maxsize=1)
def press_profile_bytes() -> bytes:
    """The press profile as embedded in the PDF's output intent."""
    return PRESS_PROFILE.read_bytes()


@lru_cache(maxsize=1)
def _profiles():
    from PIL import ImageCms  # lazy: loads PIL only when needed

    return ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PRESS_PROFILE)), ImageCms.createProfile("LAB")


@lru_cache(maxsize=None)
def _transform(src: str, dst: str, intent: int, bpc: bool = True):
    """A LittleCMS transform between ``src`` and ``dst`` ("RGB", "CMYK" or "LAB"), built once per process."""
    from PIL import ImageCms  # lazy: loads PIL only when needed

    srgb, press, lab = _profiles()
    profiles = {"RGB": srgb, "CMYK": press, "LAB": lab}
    return ImageCms.buildTransform(profiles[src], profiles[dst], src, dst, renderingIntent=intent,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION if bpc else ImageCms.Flags.NONE)


def _run(transform, im, out_mode: str):
    """Apply a transform without ImageCms's copy of the output profile into the image's info.

    ``ImageCmsTransform.apply`` serialises the 1 MB press profile into every output image,
    8 ms a call: that, not LittleCMS, would be most of the render's colour work.
    """
    from PIL import Image  # lazy: loads PIL only when needed

    out = Image.new(out_mode, im.size)
    im.load()
    transform.transform.apply(im.getim(), out.getim())
    return out


def _apply(mode: str, pixel: tuple, src: str, dst: str, intent: int, bpc: bool = True) -> tuple:
    from PIL import Image  # lazy: loads PIL only when needed

    return _run(_transform(src, dst, intent, bpc), Image.new(mode, (1, 1), pixel), dst).getpixel((0, 0))


def limit_ink(cmyk: tuple[float, float, float, float], limit: float = MAX_INK) -> tuple[float, float, float, float]:
    """``cmyk`` with C, M and Y scaled down so that C + M + Y + K <= ``limit`` (black is kept)."""
    c, m, y, k = cmyk
    total = c + m + y + k
    if total <= limit + 1e-9 or c + m + y <= 0:
        return cmyk
    f = max(0.0, limit - k) / (c + m + y)
    return (round(c * f, 4), round(m * f, 4), round(y * f, 4), k)


@lru_cache(maxsize=None)
def press_cmyk(value: str) -> tuple[float, float, float, float]:
    """A design colour (hex sRGB) as the press prints it: ICC-converted CMYK in 0..1, ink-limited."""
    pixel = _apply("RGB", _hex_rgb8(value), "RGB", "CMYK", RELATIVE)
    return limit_ink(tuple(round(v / 255, 4) for v in pixel))  # type: ignore[arg-type]


@lru_cache(maxsize=None)
def lab(value: str) -> tuple[float, float, float]:
    """CIELAB (L* 0..100, a*, b*) of a design colour (relative colorimetric, no black-point scaling)."""
    l8, a8, b8 = _apply("RGB", _hex_rgb8(value), "RGB", "LAB", RELATIVE, bpc=False)
    return (l8 / 2.55, a8 - 128.0, b8 - 128.0)


@lru_cache(maxsize=1)
def _black_ramp() -> list[float]:
    """L* the press gives for each black-only tint 0..255 (on the same scale as ``lab``)."""
    from PIL import Image  # lazy: loads PIL only when needed

    ramp = Image.frombytes("CMYK", (256, 1), bytes(b for k in range(256) for b in (0, 0, 0, k)))
    out = _run(_transform("CMYK", "LAB", RELATIVE, bpc=False), ramp, "LAB")
    return [out.getpixel((k, 0))[0] / 2.55 for k in range(256)]


@lru_cache(maxsize=None)
def black_only(value: str) -> float | None:
    """The black-ink tint (0..1) a text colour prints as, or None when it is not a dark neutral.

    The design's ink (darker than solid black on this paper) prints as 100 % K; a dark grey
    at the K tint of the same lightness.
    """
    lightness, a, b = lab(value)
    if lightness > DARK_LIGHTNESS or (a * a + b * b) ** 0.5 > NEUTRAL_CHROMA:
        return None
    ramp = _black_ramp()
    best = min(range(256), key=lambda k: (abs(ramp[k] - lightness), -k))
    if lightness <= ramp[255]:
        best = 255
    return round(best / 255, 4)


def text_cmyk(value: str) -> tuple[float, float, float, float]:
    """The CMYK a text (or a glyph-like icon) in ``value`` prints with: black only when dark and neutral."""
    k = black_only(value)
    return (0.0, 0.0, 0.0, k) if k is not None else press_cmyk(value)


def image_to_press(im):
    """An RGB(A) Pillow image converted to the press's CMYK (perceptual intent), ink-limited."""
    rgb = im.convert("RGB") if im.mode != "RGB" else im
    out = _run(_transform("RGB", "CMYK", PERCEPTUAL), rgb, "CMYK")
    return limit_image_ink(out)


def image_max_ink(im) -> float:
    """The highest C + M + Y + K of a CMYK image (1.0 = 100 %)."""
    from PIL import ImageMath  # lazy: loads PIL only when needed

    c, m, y, k = im.split()
    total = ImageMath.lambda_eval(lambda v: v["c"] + v["m"] + v["y"] + v["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255


def limit_image_ink(im, limit: float = MAX_INK):
    """A CMYK image whose pixels above ``limit`` total ink have their C, M and Y scaled down (black kept)."""
    from PIL import Image, ImageMath  # lazy: loads PIL only when needed

    if image_max_ink(im) <= limit:
        return im
    bands = {n: b.convert("F") for n, b in zip("cmyk", im.split())}
    cap = limit * 255

    def scaled(band):
        def f(v):
            cmy = v["c"] + v["m"] + v["y"]
            over = (v["c"] + v["m"] + v["y"] + v["k"]) > cap
            room = (cap - v["k"]) / (cmy + (cmy == 0))
            return v[band] * (1 - over) + over * (v[band] * room)
        return ImageMath.lambda_eval(f, **bands).convert("L")

    return Image.merge("CMYK", (scaled("c"), scaled("m"), scaled("y"), im.getchannel("K")))


@lru_cache(maxsize=4096)
def press_lab(cmyk: tuple[float, ...]) -> tuple[float, float, float]:
    """CIELAB of a CMYK colour as the press prints it (L* 0..100), to tell a black from a dark colour."""
    pixel = tuple(max(0, min(255, round(v * 255))) for v in cmyk)
    l8, a8, b8 = _apply("CMYK", pixel, "CMYK", "LAB", RELATIVE, bpc=False)
    return (l8 / 2.55, a8 - 128.0, b8 - 128.0)
