#!/bin/sh
# The man page must be clean under mandoc's linter.
cd "$(dirname "$0")/.." || exit 2
out=$(mandoc -Tlint -W warning wmark.1 2>&1)
if [ -z "$out" ]; then
	echo "ok 1 - mandoc -Tlint wmark.1 is clean"
else
	echo "not ok 1 - mandoc -Tlint wmark.1 is clean"
	echo "$out" | sed 's/^/# /'
fi
echo "1..1"
