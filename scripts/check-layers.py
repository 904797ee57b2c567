#!/usr/bin/env python3
"""Fails when a source file includes a header of a layer below its own, or maps memory
outside the layers that own mappings.

The layer order is the table "Architecture: layers" in docs/DESIGN.md: each row names a
folder, and a file in one folder may include only headers of its own folder or of the
folders in the rows above it. Headers outside every layer (system, library, generated
ones) are not judged.

A file is mapped only through src/io (io::FileMapping), and memory is mapped only by
the ledger's tracked buffers in src/memory: a call of mmap anywhere else (their tests
aside) bypasses the fault handler and the buffer ledger.

Namespaces follow folders: a file in src/<a>/<b>/ declares its names in zkpipe::<a>::<b>
(namespaces nested below that are its own: detail, poseidon). Two folders group files
without naming a namespace: src/circuits/ (each circuit family is one of its own:
zkpipe::porep_like, zkpipe::filecoin::porep) and src/ec/msm/ (the curve layer's
multi-scalar multiplication, in zkpipe::ec). Usage: check-layers.py [REPO_ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
design = (root / "docs" / "DESIGN.md").read_text()
section = design.split("## Architecture: layers", 1)
if len(section) != 2:
    sys.exit("check-layers: docs/DESIGN.md has no '## Architecture: layers' section")
rows = re.findall(r"^\| [^|]+ \| `([^`]+)/` \|", section[1].split("\n## ", 1)[0], re.M)
if len(rows) < 2:
    sys.exit("check-layers: the layer table in docs/DESIGN.md lists fewer than two folders")
rank = {folder: i for i, folder in enumerate(rows)}


def layer_of(path: str):
    """The layer folder holding `path` (relative to the root), the longest match."""
    best = None
    for folder in rank:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
problems = []
sources = [p for p in root.rglob("*") if p.suffix in {".hpp", ".cpp", ".cu", ".cuh"}
           and not any(part.startswith("build") or part.startswith(".") for part in p.relative_to(root).parts)]
for path in sorted(sources):
    rel = path.relative_to(root).as_posix()
    own = layer_of(rel)
    if own is None:
        continue
    for header in include.findall(path.read_text(errors="replace")):
        target = layer_of("src/" + header) or layer_of(header)
        if target is not None and rank[target] > rank[own]:
            problems.append(f"{rel}: includes \"{header}\" ({target}/, a layer below {own}/)")

mapping_owners = ("src/io/", "src/memory/", "tests/io/", "tests/memory/")
mmap_call = re.compile(r"\bmmap(?:64)?\s*\(")
comment = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
mappings = []
for path in sorted(sources):
    rel = path.relative_to(root).as_posix()
    if rel.startswith(mapping_owners):
        continue
    code = comment.sub("", path.read_text(errors="replace"))
    if mmap_call.search(code):
        mappings.append(f"{rel}: calls mmap (map files through src/io, memory through src/memory's tracked buffers)")

# Folders that group files without naming a namespace: what they add instead.
grouping = {"circuits": [], "ec/msm": ["ec"]}


def expected_namespace(rel: str) -> str:
    folders = rel.split("/")[1:-1]
    for prefix, replacement in grouping.items():
        parts = prefix.split("/")
        if folders[:len(parts)] == parts:
            folders = replacement + folders[len(parts):]
            break
    return "::".join(["zkpipe"] + folders)


declaration = re.compile(r"^namespace\s+(zkpipe[\w:]*)\s*\{", re.M)
namespaces = []
for path in sorted(sources):
    rel = path.relative_to(root).as_posix()
    if not rel.startswith("src/"):
        continue
    want = expected_namespace(rel)
    for declared in declaration.findall(path.read_text(errors="replace")):
        if declared != want and not declared.startswith(want + "::"):
            namespaces.append(f"{rel}: declares namespace {declared}, its folder's is {want}")

for line in problems + mappings + namespaces:
    print(line)
if problems:
    print(f"check-layers: {len(problems)} include(s) go down the layer order of docs/DESIGN.md")
if mappings:
    print(f"check-layers: {len(mappings)} file(s) outside src/io and src/memory call mmap")
if namespaces:
    print(f"check-layers: {len(namespaces)} namespace declaration(s) do not follow their folders")
if problems or mappings or namespaces:
    sys.exit(1)
print(f"check-layers: {len(sources)} files, {len(rows)} layers, no include goes down the order, "
      "no mmap outside src/io and src/memory, every namespace follows its folder")
