import os, time, statistics, sys, mmap
d = sys.argv[1]
n=150; size=48*1024
def run(kind):
    p = os.path.join(d, 'sync-%s.bin' % kind)
    fd = os.open(p, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
    os.write(fd, b'\0' * (n * size + 4096)); os.fsync(fd); os.close(fd)
    flags = os.O_RDWR
    if kind in ('direct', 'direct_dsync'): flags |= os.O_DIRECT
    if kind in ('dsync', 'direct_dsync'): flags |= os.O_DSYNC
    fd = os.open(p, flags)
    buf = mmap.mmap(-1, size); buf.write(b'x' * size)
    ts = []
    for i in range(n):
        t = time.perf_counter()
        os.pwrite(fd, buf, i * size)
        if kind in ('plain', 'direct'): os.fdatasync(fd)
        ts.append(time.perf_counter() - t)
    os.close(fd); os.unlink(p)
    return statistics.median(ts) * 1e3
for r in range(3):
    print(" | ".join("%s %.2f ms" % (k, run(k)) for k in ('plain', 'direct', 'dsync', 'direct_dsync')))
