"""Outputs are verified, not trusted: a file changed, truncated or deleted behind forge's back is rendered again."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from forge.render.cards import MANIFEST, RenderOptions, render_cards

from .helpers import books, mini_db
from .test_command import CARDS

from ..conftest import invoke

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
PROFILES = ("gamecrafter", "pnp")


def render(out: Path):
    opts = RenderOptions(out=out, workers=1, langs=("en",), papers=("a4",), profiles=PROFILES,
                         tts_base_url="https://example.invalid")
    return render_cards(mini_db(), books(), REPO, opts)


def outputs(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".cache" not in p.parts}


@pytest.fixture(scope="session")
def first_render(tmp_path_factory) -> Path:
    """The small game rendered once per session (per xdist worker): every test changes its own copy."""
    out = tmp_path_factory.mktemp("verify") / "output"
    render(out)
    return out


@pytest.fixture
def rendered(first_render, tmp_path):
    """A copy of ``first_render``, cache and manifest included: forge's records name files relative to the
    output folder and are sealed with this machine's key, so the copy is trusted as the render itself
    (the first test below fails otherwise: it would find no file changed outside forge)."""
    out = tmp_path / "output"
    shutil.copytree(first_render, out, symlinks=True)
    return out, outputs(out)


def test_outputs_changed_truncated_or_deleted_are_rendered_again_and_reported(rendered):
    out, original = rendered
    pdf, png, gone = "pnp/rift-commanders-en-a4.pdf", "gamecrafter/en/snare.png", "gamecrafter/en/tide-turn.png"
    # an edit in place that keeps the size and the modification time
    stat = (out / pdf).stat()
    data = bytearray((out / pdf).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (out / pdf).write_bytes(bytes(data))
    os.utime(out / pdf, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with open(out / png, "r+b") as fh:
        fh.truncate(100)
    (out / gone).unlink()

    result = render(out)
    assert result.outside == {pdf: "changed", png: "changed", gone: "deleted"}
    assert sorted(set(result.written) & {pdf, png, gone}) == sorted([pdf, png, gone])
    assert outputs(out) == original  # rendered again, byte for byte as before
    assert result.summary()["changed_outside"] == 3

    again = render(out)
    assert again.outside == {} and again.written == []


def test_images_deleted_alone_are_made_again_on_two_cores(rendered):
    """Outputs made only of cached faces (no face to draw, no document) were never started when
    two workers ran: the jobs waiting for the faces were released only after a face job ended."""
    out, original = rendered
    gone = ["gamecrafter/en/snare.png", "gamecrafter/en/tide-turn.png"]
    for rel in gone:
        (out / rel).unlink()
    opts = RenderOptions(out=out, workers=2, langs=("en",), papers=("a4",), profiles=PROFILES)
    result = render_cards(mini_db(), books(), REPO, opts)
    assert result.findings == [] and sorted(result.outside) == gone
    assert outputs(out) == original


def test_a_link_or_a_fifo_in_place_of_an_output_is_replaced_without_being_read(rendered):
    out, original = rendered
    link, fifo = "gamecrafter/en/snare.png", "gamecrafter/en/lost-wisp.png"
    (out / link).unlink()
    (out / link).symlink_to("/dev/zero")  # read, it would never end
    (out / fifo).unlink()
    os.mkfifo(out / fifo)  # opened for reading, it would block
    result = render(out)
    assert result.outside == {link: "changed", fifo: "changed"}
    assert not (out / link).is_symlink() and (out / fifo).is_file()
    assert outputs(out) == original


def test_a_manifest_without_hashes_renders_again_without_blaming_anyone(rendered):
    out, original = rendered
    manifest = json.loads((out / MANIFEST).read_text())["data"]  # written as before hashes and seals
    for entry in manifest["files"].values():
        del entry["sha256"], entry["size"]
    (out / MANIFEST).write_text(json.dumps(manifest))
    result = render(out)
    assert result.outside == {} and set(manifest["files"]) <= set(result.written)
    assert render(out).written == []  # and the hashes are recorded from now on


def test_the_command_says_which_file_was_rendered_again(project):
    project("game.yaml", CARDS)
    args = ["render", "cards", "--root", str(project.root), "--profile", "gamecrafter", "--lang", "en"]
    assert invoke(args).exit_code == 0
    target = project.root / "output/gamecrafter/en/spark.png"
    target.write_bytes(b"not the card")
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert f"{target.as_posix()} was changed outside forge: rendered again" in result.stdout
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    json_result = invoke([*args, "--format", "json"])
    assert json.loads(json_result.stdout)["changed_outside"] == {}


def test_a_tampered_cached_product_is_made_again_not_copied(rendered):
    """The face cache under output/.cache is verified too: an output rebuilt from it never uses a changed image."""
    from forge.render.jobs import HASHES, MASTER

    out, original = rendered
    masters = sorted(p for p in (out / ".cache" / "faces").rglob(MASTER))
    assert masters and all((p.parent / HASHES).is_file() for p in masters)
    for master in masters:
        master.write_bytes(b"\x89PNG\r\n\x1a\n not the face any more")
    gone = "gamecrafter/en/snare.png"
    (out / gone).unlink()
    result = render(out)
    assert gone in result.written
    assert outputs(out) == original  # made again from fresh faces, byte for byte as before


def test_an_output_folder_from_elsewhere_is_not_trusted(tmp_path, monkeypatch):
    """A pull request can commit output/ with its own images and self-consistent records: sealed with a
    key that is not this machine's, they are no records, and everything is rendered again."""
    import hashlib

    from forge.core import seal
    from forge.render.cards import manifest_record
    from forge.render.jobs import HASHES, MASTER, face_record

    out = tmp_path / "output"
    monkeypatch.setattr(seal, "_KEY", {"key": b"A" * 32})  # the attacker's machine
    render(out)
    original = outputs(out)
    poison = b"\x89PNG\r\n\x1a\n made up"
    for master in (out / ".cache" / "faces").rglob(MASTER):
        master.write_bytes(poison)
        products = face_record(out, master.parent.name, HASHES)
        products.save({**products.load(), MASTER: hashlib.sha256(poison).hexdigest()})
    manifest = manifest_record(out).load()
    for rel, entry in manifest["files"].items():
        if rel.endswith(".png"):
            (out / rel).write_bytes(poison)
            entry.update(sha256=hashlib.sha256(poison).hexdigest(), size=len(poison))
    manifest_record(out).save(manifest)
    assert render(out).written == []  # the same key: the made-up records are believed (what the seal is for)

    monkeypatch.setattr(seal, "_KEY", {"key": b"B" * 32})  # this machine
    result = render(out)
    assert result.outside == {}
    assert outputs(out) == original
