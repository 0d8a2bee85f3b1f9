#!/usr/bin/env python3
"""Write a /proc/zoneinfo as a 6.18 x86-64 kernel prints it, for NODES
NUMA nodes and CPUS online CPUs, to stdout.

usage: gen-zoneinfo.py NODES CPUS > zoneinfo

The layout follows zoneinfo_show_print() of mm/vmstat.c in 6.18, checked
against a real 6.18 capture (../shared/corpus/vm-6.18-firecracker-A):
every node prints all five zones (DMA, DMA32, Normal, Movable, Device);
node 0 has DMA, DMA32 and Normal populated, the other nodes Normal only.
The first populated zone of a node carries the "per-node stats" block; a
populated zone has its counters and one pageset per CPU (high_min and
high_max are printed from 6.13); an unpopulated zone stops after
"protection:".

The numbers are self-consistent: watermarks follow
__setup_per_zone_wmarks() with min_free_kbytes 67584 and
watermark_scale_factor 10 (6.6+: an empty Movable zone gets min 32), and
protection follows setup_per_zone_lowmem_reserve() with ratios
256 256 32 0 0, and pcp batch, high_min and high_max follow
zone_batchsize() and the 6.7+ auto-tuning bounds.  Each node has 16 GiB.
"""
import sys

ZONES = ["DMA", "DMA32", "Normal", "Movable", "Device"]
LRR = [256, 256, 32, 0, 0]
MIN_FREE_KBYTES = 67584
WSF = 10
NODE_PAGES = 4 << 20            # 16 GiB of 4 KiB pages

PER_NODE_STATS = [
    "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
    "nr_active_file", "nr_unevictable", "nr_slab_reclaimable",
    "nr_slab_unreclaimable", "nr_isolated_anon", "nr_isolated_file",
    "workingset_nodes", "workingset_refault_anon", "workingset_refault_file",
    "workingset_activate_anon", "workingset_activate_file",
    "workingset_restore_anon", "workingset_restore_file",
    "workingset_nodereclaim", "nr_anon_pages", "nr_mapped", "nr_file_pages",
    "nr_dirty", "nr_writeback", "nr_shmem", "nr_shmem_hugepages",
    "nr_shmem_pmdmapped", "nr_file_hugepages", "nr_file_pmdmapped",
    "nr_anon_transparent_hugepages", "nr_vmscan_write",
    "nr_vmscan_immediate_reclaim", "nr_dirtied", "nr_written",
    "nr_throttled_written", "nr_kernel_misc_reclaimable",
    "nr_foll_pin_acquired", "nr_foll_pin_released", "nr_kernel_stack",
    "nr_page_table_pages", "nr_sec_page_table_pages", "nr_iommu_pages",
    "nr_swapcached", "pgpromote_success", "pgpromote_candidate",
    "pgpromote_candidate_nrl", "pgdemote_kswapd", "pgdemote_direct",
    "pgdemote_khugepaged", "pgdemote_proactive", "nr_hugetlb",
    "nr_balloon_pages", "nr_kernel_file_pages",
]
ZONE_STATS = [
    "nr_free_pages", "nr_free_pages_blocks", "nr_zone_inactive_anon",
    "nr_zone_active_anon", "nr_zone_inactive_file", "nr_zone_active_file",
    "nr_zone_unevictable", "nr_zone_write_pending", "nr_mlock", "nr_zspages",
    "nr_free_cma", "numa_hit", "numa_miss", "numa_foreign",
    "numa_interleave", "numa_local", "numa_other",
]


def layout(nodes):
    """Per node, per zone: (spanned, present, managed, start_pfn)."""
    out = []
    for n in range(nodes):
        base = n * NODE_PAGES
        if n == 0:
            normal = NODE_PAGES - 1048576
            z = [(4095, 3998, 3840, 1), (1044480, 782336, 772918, 4096),
                 (normal, normal, normal - normal // 64, 1048576)]
        else:
            z = [(0, 0, 0, 0), (0, 0, 0, 0),
                 (NODE_PAGES, NODE_PAGES, NODE_PAGES - NODE_PAGES // 64,
                  base)]
        z += [(0, 0, 0, 0), (0, 0, 0, 0)]
        out.append(z)
    return out


def watermarks(lay):
    """{(node, zone): (min, low, high, promo)} as 6.18 computes them."""
    pages_min = MIN_FREE_KBYTES >> 2
    lowmem = sum(z[2] for node in lay for i, z in enumerate(node)
                 if ZONES[i] != "Movable")
    wm = {}
    for n, node in enumerate(lay):
        for i, (_, _, managed, _) in enumerate(node):
            if ZONES[i] == "Device":
                wm[n, i] = (0, 0, 0, 0)
                continue
            share = pages_min * managed // lowmem
            if ZONES[i] == "Movable":
                mn = min(max(managed // 1024, 32), 128)
            else:
                mn = share
            # The gap comes from the proportional share, not the clamp.
            gap = max(share // 4, managed * WSF // 10000)
            wm[n, i] = (mn, mn + gap, mn + 2 * gap, mn + 3 * gap)
    return wm


def zone_batch(managed):
    """zone_batchsize() (docs/model.md §6), before max(1, ...)."""
    b = max(min(managed >> 10, (1 << 20) // 4096) // 4, 1)
    b += b // 2
    return (1 << (b.bit_length() - 1)) - 1


def protection(node):
    prot = []
    for i in range(len(node)):
        row = []
        for j in range(len(node)):
            # 5.11+ (rule D): an empty zone or ratio 0 reserves nothing.
            if j <= i or LRR[i] == 0 or node[i][2] == 0:
                row.append(0)
            else:
                row.append(sum(z[2] for z in node[i + 1:j + 1]) // LRR[i])
        prot.append(row)
    return prot


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit() or not argv[2].isdigit() \
            or int(argv[1]) < 1 or int(argv[2]) < 1:
        sys.stderr.write("usage: gen-zoneinfo.py NODES CPUS > zoneinfo\n")
        return 2
    nodes, cpus = int(argv[1]), int(argv[2])
    lay = layout(nodes)
    wm = watermarks(lay)
    w = []
    for n, node in enumerate(lay):
        prot = protection(node)
        first = True
        for i, (spanned, present, managed, start) in enumerate(node):
            free = managed - managed // 7
            w.append("Node %d, zone %8s\n" % (n, ZONES[i]))
            if present and first:
                first = False
                w.append("  per-node stats\n")
                for k, name in enumerate(PER_NODE_STATS):
                    w.append("      %-12s %d\n" % (name, (k * 7919 + n) % 100003))
            mn, lo, hi, pr = wm[n, i]
            w.append("  pages free     %d\n" % (free if present else 0))
            for key, v in (("boost", 0), ("min", mn), ("low", lo),
                           ("high", hi), ("promo", pr), ("spanned", spanned),
                           ("present", present), ("managed", managed),
                           ("cma", 0)):
                w.append("        %-8s %d\n" % (key, v))
            w.append("        protection: (%s)\n" % ", ".join(map(str, prot[i])))
            if not present:
                continue
            for k, name in enumerate(ZONE_STATS):
                v = free if k == 0 else (k * 104729 + n) % 1000003
                w.append("      %-12s %d\n" % (name, v))
            w.append("  pagesets\n")
            batch = zone_batch(managed)
            # CPUs are spread over the nodes round-robin; a node without
            # CPUs divides by all online CPUs, as the kernel does.
            ncpu = len(range(n, cpus, nodes)) or cpus
            high_min = max(lo // ncpu, 4 * batch)
            high_max = max(managed // 8 // ncpu, 4 * batch)
            for c in range(cpus):
                w.append("    cpu: %d\n" % c)
                w.append("              count:    %d\n" % ((c * 37 + n * 11) % (high_min + 1)))
                w.append("              high:     %d\n" % high_min)
                w.append("              batch:    %d\n" % max(1, batch))
                w.append("              high_min: %d\n" % high_min)
                w.append("              high_max: %d\n" % high_max)
                w.append("  vm stats threshold: %d\n" % (4 if batch <= 1 else 24))
            w.append("  node_unreclaimable:  0\n")
            w.append("  start_pfn:           %d\n" % start)
    sys.stdout.write("".join(w))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
