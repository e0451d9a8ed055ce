#!/usr/bin/env python3
"""Checks the include direction between library folders against the CMake targets.

Usage: check-includes.py BUILD_DIR

Reads the targets of a configured build from CMake's file API (codemodel v2):
each target's folder, sources and the targets it depends on. A source file
may include project headers of its own folder and of the folders of the
targets its target depends on, directly or through others; a header may
include what any target of its folder may. Any other project include points
the wrong way (up, or sideways past the dependency graph) and is reported as
FILE:LINE; the exit status is then 1.
"""
import json
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_ENDINGS = (".cpp", ".cc", ".h", ".hpp")


def codemodel(build):
    """The targets of the build, from the file API (configured again when its reply is missing)."""
    query = os.path.join(build, ".cmake", "api", "v1", "query", "codemodel-v2")
    reply = os.path.join(build, ".cmake", "api", "v1", "reply")
    if not os.path.exists(query) or not os.path.isdir(reply):
        os.makedirs(os.path.dirname(query), exist_ok=True)
        open(query, "w").close()
        subprocess.run(["cmake", build], check=True, stdout=subprocess.DEVNULL)
    index = sorted(f for f in os.listdir(reply) if f.startswith("index-"))[-1]
    with open(os.path.join(reply, index)) as f:
        model_file = json.load(f)["reply"]["codemodel-v2"]["jsonFile"]
    with open(os.path.join(reply, model_file)) as f:
        model = json.load(f)
    source_root = model["paths"]["source"]
    targets = {}
    for ref in model["configurations"][0]["targets"]:
        with open(os.path.join(reply, ref["jsonFile"])) as f:
            t = json.load(f)
        if t["type"] not in ("STATIC_LIBRARY", "OBJECT_LIBRARY", "SHARED_LIBRARY", "EXECUTABLE"):
            continue
        targets[t["id"]] = {
            "name": t["name"],
            "folder": os.path.normpath(t["paths"]["source"]),
            "deps": [d["id"] for d in t.get("dependencies", [])],
            "sources": [os.path.normpath(s["path"]) for s in t.get("sources", [])
                        if not os.path.isabs(s["path"])],
        }
    return source_root, targets


def closure(targets, tid):
    """The folders of tid and of every target it depends on, directly or not."""
    seen, todo = set(), [tid]
    while todo:
        t = todo.pop()
        if t in seen or t not in targets:
            continue
        seen.add(t)
        todo.extend(targets[t]["deps"])
    return {targets[t]["folder"] for t in seen}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root, targets = codemodel(sys.argv[1])
    allowed_by_file, allowed_by_folder, owner = {}, {}, {}
    for tid, t in targets.items():
        folders = closure(targets, tid)
        allowed_by_folder.setdefault(t["folder"], set()).update(folders)
        for s in t["sources"]:
            allowed_by_file.setdefault(s, set()).update(folders)
            owner.setdefault(s, t["name"])
    problems = 0
    checked = 0
    for folder in sorted(allowed_by_folder):
        directory = os.path.join(root, folder)
        for name in sorted(os.listdir(directory)):
            rel = os.path.normpath(os.path.join(folder, name))
            if not name.endswith(SOURCE_ENDINGS) or not os.path.isfile(os.path.join(root, rel)):
                continue
            allowed = allowed_by_file.get(rel, allowed_by_folder[folder])
            who = owner.get(rel, "the targets of " + folder)
            checked += 1
            with open(os.path.join(root, rel), errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m or not os.path.isfile(os.path.join(root, m.group(1))):
                        continue  # not a project header (system, generated or relative)
                    target_folder = os.path.dirname(os.path.normpath(m.group(1))) or "."
                    if target_folder == folder or target_folder in allowed:
                        continue
                    print(f"{rel}:{number}: includes {m.group(1)}, but {who} does not depend on "
                          f"a library of {target_folder}/")
                    problems += 1
    if problems:
        print(f"check-includes: {problems} include(s) against the dependency direction")
        sys.exit(1)
    print(f"check-includes: {checked} files in {len(allowed_by_folder)} folders include only "
          f"downwards")


if __name__ == "__main__":
    main()
