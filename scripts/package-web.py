#!/usr/bin/env python3
"""Lays out a browser build for serving, versioned by its hash (scripts/build-web.sh runs it).

    scripts/package-web.py [--web web] STAGE OUT

STAGE holds one build's files: boardcraft.js, boardcraft_bg.wasm (wasm-bindgen output) and
assets/. They move to OUT/b/<hash>/, <hash> being the first 16 hex digits of the SHA-256 of
their names and contents, so a file's URL never serves two different contents: servers may let
browsers keep them for a year, and a page of one build never loads another build's files.
Beside them, in OUT (fetched again on every load: `Cache-Control: no-cache`):

- build.json: the build manifest, `{"build": hash, "dir": "b/<hash>/", "files": {path: bytes}}`
  (the page shows the download's progress against these sizes: a compressed response's
  Content-Length is the compressed size);
- index.html: web/index.html with the manifest written into it (no extra request at start)
  and the build's folder in its preload links;
- sw.js: web/sw.js, the service worker, with the build's hash and its list of files to keep
  for offline use (so every new build is a new service worker);
- manifest.webmanifest and icons/: the web app manifest and its icons (from web/).

Other builds' b/<hash>/ folders in OUT are left alone (a page that is still open may fetch a
file of its own build). Standard library only.
"""

import argparse
import hashlib
import json
import os
import shutil
import sys

PLACEHOLDER = "__BOARDCRAFT_BUILD__"
# The build's folder (`b/<hash>/`), for index.html's preload links.
DIR_PLACEHOLDER = "__BOARDCRAFT_DIR__"


def files_of(folder):
    """Every file under `folder`, as sorted '/'-separated relative paths."""
    found = []
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.relpath(os.path.join(root, name), folder)
            found.append(path.replace(os.sep, "/"))
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", default=os.path.join(os.path.dirname(__file__), "..", "web"))
    parser.add_argument("stage")
    parser.add_argument("out")
    args = parser.parse_args()

    files = files_of(args.stage)
    for needed in ("boardcraft.js", "boardcraft_bg.wasm"):
        if needed not in files:
            sys.exit(f"{args.stage} has no {needed}")
    digest = hashlib.sha256()
    sizes = {}
    for path in files:
        with open(os.path.join(args.stage, path), "rb") as f:
            data = f.read()
        digest.update(path.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
        sizes[path] = len(data)
    build = digest.hexdigest()[:16]
    folder = f"b/{build}/"
    manifest = {"build": build, "dir": folder, "files": sizes}

    os.makedirs(os.path.join(args.out, "b"), exist_ok=True)
    target = os.path.join(args.out, "b", build)
    if os.path.exists(target):
        shutil.rmtree(target)
    shutil.move(args.stage, target)

    # Precompressed copies of the files rewritten below are stale now (build-web.sh makes new
    # ones); a server would send them instead of the new files.
    for name in ("build.json", "index.html", "sw.js", "manifest.webmanifest"):
        for suffix in (".br", ".gz"):
            stale = os.path.join(args.out, name + suffix)
            if os.path.exists(stale):
                os.remove(stale)
    text = json.dumps(manifest, separators=(",", ":"), sort_keys=True)
    with open(os.path.join(args.out, "build.json"), "w") as f:
        f.write(text + "\n")
    # `</` cannot end the script element the manifest is written into.
    inline = text.replace("</", "<\\/")
    for name in ("index.html", "sw.js"):
        with open(os.path.join(args.web, name)) as f:
            template = f.read()
        if PLACEHOLDER not in template:
            sys.exit(f"web/{name} has no {PLACEHOLDER}")
        with open(os.path.join(args.out, name), "w") as f:
            f.write(template.replace(PLACEHOLDER, inline).replace(DIR_PLACEHOLDER, folder))
    shutil.copy(os.path.join(args.web, "manifest.webmanifest"), args.out)
    icons = os.path.join(args.out, "icons")
    if os.path.exists(icons):
        shutil.rmtree(icons)
    shutil.copytree(os.path.join(args.web, "icons"), icons)
    total = sum(sizes.values())
    print(f"   build {build}: {len(files)} files, {total} bytes, in {folder}")


if __name__ == "__main__":
    main()
