#!/bin/bash
# nab.sh: Netty maxOrder A/B, alternating JVMs, drv5 (dop 1 and 2 interleaved), CPU figures
Q=$(for i in $(seq -w 1 22); do printf "q%s " $i; done)
for r in 1 2; do
  for x in base mo11; do
    opt=""; [ $x = mo11 ] && opt="-Dio.netty.allocator.maxOrder=11"
    echo "$x round $r start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    XOPTS="$opt" ./run5.sh /tmp/lead/b0 /tmp/lead/dbR 3 7 $Q > /tmp/lead/nab.$x.$r 2>&1
  done
done
echo done
