#!/bin/bash -e
# pi-gen (host side): the same install script the tests run on a Debian root.
# build.sh put the wheel, dependency wheels and repo files in files/.
cd "$(dirname "$0")"
PK_SRC="$PWD/files" PK_WHEELHOUSE="${PK_WHEELHOUSE:-}" \
	../install-root.sh "${ROOTFS_DIR}" "${PK_ROLE:?PK_ROLE not set in the pi-gen config}" \
	files/poker_kiosk-*.whl
