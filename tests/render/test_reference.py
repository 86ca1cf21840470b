"""Rendered cards compared with reference images, within a small pixel tolerance.

Regenerate the references after an intended design change: python -m tests.render.make_reference
"""
from __future__ import annotations

import pytest

from .make_reference import CASES, REFERENCE, images

pytest.importorskip("pypdfium2")

#: A pixel "differs" past this many levels (of 255) in any channel; fonts' anti-aliasing stays below it.
PIXEL_TOLERANCE = 48
#: At most this share of the pixels may differ, and the mean difference stay this small.
MAX_DIFFERING = 0.005
MAX_MEAN = 1.5


@pytest.fixture(scope="module")
def rendered():
    return images()


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_card_matches_its_reference(rendered, name):
    from PIL import Image, ImageChops, ImageStat

    ref_path = REFERENCE / f"{name}.png"
    assert ref_path.exists(), "run python -m tests.render.make_reference"
    with Image.open(ref_path) as ref:
        ref = ref.convert("RGB")
    got = rendered[name]
    assert got.size == ref.size
    diff = ImageChops.difference(got, ref)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    worst = diff.convert("L").point(lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    differing = ImageStat.Stat(worst).mean[0] / 255
    assert differing <= MAX_DIFFERING and mean <= MAX_MEAN, (
        f"{name}: {differing:.2%} of pixels differ, mean difference {mean:.2f}; "
        f"if the change is intended, run python -m tests.render.make_reference")
