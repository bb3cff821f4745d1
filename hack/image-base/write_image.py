#!/usr/bin/env python3
"""Packs a root filesystem directory into a one-layer image tarball in `docker save` format.

The result is what Jib reads as a `tar://` base image and what `kind load image-archive` accepts.
Written in Python rather than with GNU tar because file ownership has to be set per path (root for the
system, the non-root user for its home) and the build may itself run as a non-root user.

    write_image.py ROOTFS OUTPUT_TAR IMAGE_NAME --env K=V ... --user 65532:65532 --workdir DIR --label K=V ...
                   [--entrypoint ARG ...] [--stop-signal SIGNAL] [--created-by TEXT]
"""
import argparse
import hashlib
import io
import json
import os
import stat
import sys
import tarfile
import tempfile

# A fixed timestamp keeps the layer digest stable for identical inputs (reproducible base image).
EPOCH = 0


def add_tree(layer, rootfs, owned_by_user, uid, gid):
    """Adds every entry under rootfs in sorted order, owned by root except the given paths."""
    for directory, dirnames, filenames in os.walk(rootfs):
        dirnames.sort()
        # os.walk lists symlinks to directories among dirnames without descending into them.
        entries = sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(directory, d))])
        for path in [directory] + [os.path.join(directory, name) for name in entries]:
            relative = os.path.relpath(path, rootfs)
            if relative == ".":
                continue
            info = layer.gettarinfo(path, arcname=relative)
            info.mtime = EPOCH
            info.uname = info.gname = ""
            owned = any(relative == p or relative.startswith(p + "/") for p in owned_by_user)
            info.uid, info.gid = (uid, gid) if owned else (0, 0)
            if info.isreg():
                with open(path, "rb") as content:
                    layer.addfile(info, content)
            else:
                layer.addfile(info)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rootfs")
    parser.add_argument("output")
    parser.add_argument("image")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--label", action="append", default=[])
    parser.add_argument("--user", default="65532:65532")
    parser.add_argument("--workdir", default="/")
    parser.add_argument("--owned-by-user", action="append", default=[],
                        help="paths (relative to the root) owned by the image user instead of root")
    parser.add_argument("--entrypoint", action="append", default=[],
                        help="one argument of the image's entrypoint per option, in order (none: a base image)")
    parser.add_argument("--stop-signal",
                        help="the signal a runtime stops the container with (none: SIGTERM), e.g. SIGINT")
    parser.add_argument("--created-by", default="hack/image-base/build.sh (Debian packages + jlink runtime)",
                        help="what built the layer, recorded in the image history")
    args = parser.parse_args()

    uid, gid = (int(part) for part in args.user.split(":"))
    with tempfile.TemporaryDirectory() as scratch:
        layer_path = os.path.join(scratch, "layer.tar")
        with tarfile.open(layer_path, "w", format=tarfile.PAX_FORMAT) as layer:
            add_tree(layer, args.rootfs, args.owned_by_user, uid, gid)
        digest = hashlib.sha256()
        with open(layer_path, "rb") as layer_file:
            for chunk in iter(lambda: layer_file.read(1 << 20), b""):
                digest.update(chunk)
        diff_id = digest.hexdigest()

        container_config = {
            "Env": args.env,
            "User": args.user,
            "WorkingDir": args.workdir,
            "Labels": dict(label.split("=", 1) for label in args.label),
        }
        if args.entrypoint:
            container_config["Entrypoint"] = args.entrypoint
        if args.stop_signal:
            container_config["StopSignal"] = args.stop_signal
        config = {
            "architecture": "amd64",
            "os": "linux",
            "created": "1970-01-01T00:00:00Z",
            "config": container_config,
            "rootfs": {"type": "layers", "diff_ids": ["sha256:" + diff_id]},
            "history": [{"created": "1970-01-01T00:00:00Z",
                         "created_by": args.created_by}],
        }
        config_bytes = json.dumps(config, indent=2, sort_keys=True).encode()
        config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
        manifest = [{"Config": config_name, "RepoTags": [args.image], "Layers": [diff_id + "/layer.tar"]}]

        with tarfile.open(args.output + ".partial", "w") as image:
            def add_bytes(name, data):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mtime = EPOCH
                info.mode = 0o644
                image.addfile(info, io.BytesIO(data))

            add_bytes(config_name, config_bytes)
            image.add(layer_path, arcname=diff_id + "/layer.tar", filter=lambda i: _normalise(i))
            add_bytes("manifest.json", json.dumps(manifest).encode())
        os.replace(args.output + ".partial", args.output)
    return 0


def _normalise(info):
    info.mtime = EPOCH
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o644 if not stat.S_ISDIR(info.mode) else 0o755
    return info


if __name__ == "__main__":
    sys.exit(main())
