#!/bin/bash
# Prometheus end to end, with the real programs: the rules pass promtool's
# checks and unit tests and name only families wmark writes; the systemd
# units pass systemd-analyze verify; the service's own command line,
# run by hand into a temporary textfile directory, writes show's and
# verify's metrics atomically; node_exporter on a free loopback port
# serves them with the right labels and values; a Prometheus server
# scrapes it and evaluates the rules.  Every server is started here, in a
# temporary directory, and stopped.  Prints TAP.
. "$(dirname "$0")/lib.sh"
W=$(realpath "$W")
D=data/machines
M=$D/qemu-k61-4g-before	# verify: stale, 892 pages moved
pids=
stop_servers() {
	local p
	for p in $pids; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
}
at_exit stop_servers

is() {	# description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then ok "$what"; else nok "$what"; sed 's/^/# /' "$tmp/e" 2>/dev/null | head -8; fi
}
free_port() {
	py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# wait_http URL: up to 20 s for it to answer
wait_http() {
	local i
	for i in $(seq 1 100); do
		curl -fs -o /dev/null "$1" && return 0
		sleep 0.2
	done
	return 1
}

R=contrib/prometheus/wmark.rules.yml
if command -v promtool >/dev/null; then
	is "promtool check rules $R" bash -c "promtool check rules $R >'$tmp/e' 2>&1"
	is "promtool test rules: every alert fires after its 'for', and only there" \
		bash -c "cd contrib/prometheus && promtool test rules wmark.rules.test.yml >'$tmp/e' 2>&1"
else
	skip "promtool check and test rules" "promtool not installed (Debian: prometheus)"
fi
# the rules name only families wmark writes
{ "$W" --root "$M" show -o prom; "$W" --root "$M" verify -o prom; } 2>/dev/null |
	awk '/^# TYPE/ {print $3}' | sort -u >"$tmp/families"
grep -oE '(^|[^:a-z_])wmark_[a-z_]+' "$R" | grep -oE 'wmark_[a-z_]+' | sort -u >"$tmp/used"
is "every wmark_ family in the rules is one show or verify writes" \
	bash -c "comm -23 '$tmp/used' '$tmp/families' >'$tmp/e'; test ! -s '$tmp/e'"

# ---- the systemd units
S=contrib/systemd
mkdir -p "$tmp/units"
sed "s#/usr/libexec/wmark/wmark-textfile#$PWD/$S/wmark-textfile#" "$S/wmark-textfile.service" \
	>"$tmp/units/wmark-textfile.service"
cp "$S/wmark-textfile.timer" "$tmp/units/"
if command -v systemd-analyze >/dev/null; then
	is "systemd-analyze verify passes the service and the timer" bash -c \
		"cd '$tmp/units' && systemd-analyze verify --man=no ./wmark-textfile.service ./wmark-textfile.timer >'$tmp/e' 2>&1 && ! grep -q . '$tmp/e'"
else
	skip "systemd-analyze verify of the units" "systemd-analyze not installed"
fi

# The service's ExecStart, by hand: its program from contrib/, its
# directory a temporary one, wmark this build, the machine a capture.
exec_start=$(sed -n 's/^ExecStart=//p' "$S/wmark-textfile.service")
tf=$tmp/textfile
mkdir "$tf"
cmdline=$(echo "$exec_start" | sed "s#/usr/libexec/wmark/wmark-textfile#$S/wmark-textfile#; s#/var/lib/prometheus/node-exporter#$tf#")
is "the service runs wmark-textfile on node_exporter's textfile directory" \
	test "$exec_start" = "/usr/libexec/wmark/wmark-textfile /var/lib/prometheus/node-exporter"
# shellcheck disable=SC2086
WMARK=$W $cmdline --root "$M" 2>"$tmp/e"
rc=$?
{ "$W" --root "$M" show -o prom; "$W" --root "$M" verify -o prom; } >"$tmp/want" 2>/dev/null
is "its command writes show's then verify's metrics into wmark.prom (exit 0 on a stale verdict)" \
	bash -c "test $rc = 0 && cmp '$tf/wmark.prom' '$tmp/want' >'$tmp/e' 2>&1"
is "and leaves no temporary file behind" test "$(ls -A "$tf")" = wmark.prom
if command -v promtool >/dev/null; then
	is "wmark.prom passes promtool check metrics" bash -c "promtool check metrics <'$tf/wmark.prom' >'$tmp/e' 2>&1"
else
	skip "wmark.prom passes promtool check metrics" "promtool not installed (Debian prometheus)"
fi
cp "$tf/wmark.prom" "$tmp/before"
WMARK=$W "$S/wmark-textfile" "$tf" --root "$tmp/nonexistent" 2>"$tmp/e"
rc=$?
is "a run that fails (no zoneinfo) exits non-zero and keeps the old file whole" \
	bash -c "test $rc -ne 0 && cmp '$tf/wmark.prom' '$tmp/before' && test \"\$(ls -A '$tf')\" = wmark.prom"
WMARK=$W "$S/wmark-textfile" "$tmp/missing" 2>"$tmp/e"
is "a textfile directory that does not exist is exit 2 naming it" \
	test $? = 2 -a -n "$(grep -F "$tmp/missing" "$tmp/e")"

# ---- node_exporter serves them
NE=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$NE" ] || ! command -v curl >/dev/null; then
	skip "node_exporter scrape of the textfile" "prometheus-node-exporter or curl not installed"
	echo "1..$n"
	exit 0
fi
ne_port=
for try in 1 2 3; do
	port=$(free_port)
	"$NE" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tf" >"$tmp/ne.log" 2>&1 &
	pid=$!
	pids="$pids $pid"
	if wait_http "http://127.0.0.1:$port/metrics"; then ne_port=$port; break; fi
	kill "$pid" 2>/dev/null
done
is "node_exporter ($("$NE" --version 2>&1 | head -1 | cut -d' ' -f3)) answers on a free loopback port" test -n "$ne_port"
curl -fs "http://127.0.0.1:$ne_port/metrics" >"$tmp/scrape" 2>"$tmp/e"
"$W" --root "$M" -j show >"$tmp/show.json" 2>/dev/null
"$W" --root "$M" -j verify >"$tmp/verify.json" 2>/dev/null
is "the scrape has wmark's families with node/zone labels and the values of show -j and verify -j" \
	py - "$tmp/scrape" "$tmp/show.json" "$tmp/verify.json" <<'EOF'
import json, re, sys
s = {}
for line in open(sys.argv[1]):
    m = re.match(r'^(wmark_[a-z_]+|node_textfile_scrape_error)(\{[^}]*\})? (\S+)$', line.strip())
    if m:
        s[m.group(1) + (m.group(2) or '')] = float(m.group(3))
show, ver = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert s['node_textfile_scrape_error'] == 0, 'textfile scrape error'
assert s['wmark_page_size_bytes'] == show['page_size']
assert s['wmark_sysctl_min_free_kbytes'] == show['sysctl']['min_free_kbytes']
assert s['wmark_sysctl_watermark_scale_factor'] == show['sysctl']['watermark_scale_factor']
for z in show['zones']:
    lab = '{node="%d",zone="%s"}' % (z['node'], z['zone'])
    for f in ('managed', 'free', 'min', 'low', 'high'):
        assert s['wmark_zone_%s_pages%s' % (f, lab)] == z[f], (f, lab)
for z in ver['zones']:
    lab = '{node="%d",zone="%s"}' % (z['node'], z['zone'])
    assert s['wmark_verify_match' + lab] == (1 if z['match'] else 0), lab
assert s['wmark_verify_verdict{verdict="%s"}' % ver['verdict']] == 1
assert s['wmark_verify_managed_moved_pages'] == ver['managed_moved_pages']
EOF

# ---- a Prometheus server scrapes node_exporter and evaluates the rules
if ! command -v prometheus >/dev/null; then
	skip "Prometheus scrapes node_exporter and evaluates the rules" "prometheus not installed"
	echo "1..$n"
	exit 0
fi
cp "$R" "$tmp/wmark.rules.yml"
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [wmark.rules.yml]
scrape_configs:
  - job_name: node
    static_configs: [{targets: ['127.0.0.1:$ne_port']}]
EOF
pr_port=
for try in 1 2 3; do
	port=$(free_port)
	prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
		--web.listen-address="127.0.0.1:$port" >"$tmp/prom.log" 2>&1 &
	pid=$!
	pids="$pids $pid"
	if wait_http "http://127.0.0.1:$port/-/ready"; then pr_port=$port; break; fi
	kill "$pid" 2>/dev/null
done
is "prometheus ($(prometheus --version 2>&1 | head -1 | cut -d' ' -f3)) is ready on a free loopback port" test -n "$pr_port"
# query EXPR: the first sample's value, once there is one (up to 20 s)
query() {
	local i v
	for i in $(seq 1 100); do
		v=$(curl -fsG "http://127.0.0.1:$pr_port/api/v1/query" --data-urlencode "query=$1" |
			py -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null)
		[ -n "$v" ] && { echo "$v"; return; }
		sleep 0.2
	done
}
want_min=$(py -c "import json; z=[z for z in json.load(open('$tmp/show.json'))['zones'] if z['zone']=='Normal'][0]; print(z['min'])")
is "Prometheus has wmark_zone_min_pages{zone=\"Normal\"} from the scrape ($want_min)" \
	test "$(query 'wmark_zone_min_pages{zone="Normal"}')" = "$want_min"
is "the recording rule instance:wmark_high_over_managed:ratio is evaluated" \
	test -n "$(query 'instance:wmark_high_over_managed:ratio')"
is "WmarkWatermarksStale is pending for the stale capture" \
	test "$(query 'ALERTS{alertname="WmarkWatermarksStale",alertstate="pending"}')" = 1
echo "1..$n"
