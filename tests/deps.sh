#!/bin/sh
# Install the Debian packages named on the command line that are missing.
# Used by `make deps`, `make run` and `make check`; does nothing when all
# are present, and only explains what is missing when not root.
missing=
for p in "$@"; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "wmark: missing Debian packages:$missing (run as root, or: apt-get install$missing)" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=120 update -qq || exit 1
# shellcheck disable=SC2086
apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends $missing >/dev/null || exit 1
