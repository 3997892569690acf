import org.apache.arrow.memory.*;
public class Alloc {
    public static void main(String[] a) {
        try (RootAllocator root = new RootAllocator(Long.MAX_VALUE)) {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 30; i++) {
                long t = System.nanoTime();
                ArrowBuf b = root.buffer(64L << 20);
                long d = System.nanoTime() - t;
                b.close();
                best = Math.min(best, d);
            }
            System.out.printf("64 MB buffer: best %.2f ms%n", best / 1e6);
        }
    }
}
