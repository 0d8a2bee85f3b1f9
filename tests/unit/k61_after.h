/* SPDX-License-Identifier: MIT */
/*
 * k61_after.h - the Debian 6.1.192 qemu guest (4 GiB) after
 * watermark_scale_factor 1000, min_free_kbytes 32768 and
 * lowmem_reserve_ratio 64 64 16 0 0, as its zoneinfo printed it
 * (data/machines/qemu-k61-4g-after, reproduced by docs/model.md §3, §4);
 * only the lines the model reads.  ZONE(name, free, boost, min, low, high,
 * managed, protection...).
 */
#define K61_ZONE(name, free, boost, min, low, high, managed, prot) \
	"Node 0, zone " name "\n  pages free     " #free "\n        boost    " #boost \
	"\n        min      " #min "\n        low      " #low "\n        high     " #high \
	"\n        spanned  " #managed "\n        present  " #managed \
	"\n        managed  " #managed "\n        protection: " prot "\n"

#define K61_AFTER \
	K61_ZONE("     DMA", 3712, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)") \
	K61_ZONE("   DMA32", 700000, 0, 6263, 82855, 159447, 765920, "(0, 0, 3625, 3625, 3625)") \
	K61_ZONE("  Normal", 200000, 0, 1897, 25099, 48301, 232025, "(0, 0, 0, 0, 0)") \
	K61_ZONE(" Movable", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)") \
	K61_ZONE("  Device", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)")

#define K61_MFK 32768
#define K61_WSF 1000
