#!/bin/bash
# whatif against real kernels: every sysctl write recorded in the qemu
# captures of ../shared/corpus, predicted from the state before it and
# compared with the zoneinfo the kernel printed after it.
exec python3 "$(dirname "$0")/whatif_captures.py"
