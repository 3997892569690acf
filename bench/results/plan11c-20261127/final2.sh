#!/bin/bash
cd /tmp/plan11c/drv
while kill -0 15633 2>/dev/null; do sleep 5; done
./ab.sh abw.txt 4 50 Q2 Q21
./ab.sh ab-q21.txt 2 0 Q21
