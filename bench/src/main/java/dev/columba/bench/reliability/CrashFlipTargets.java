package dev.columba.bench.reliability;

import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.page.PageFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Where a flip after a crash lands: every kind of file, and every kind of page of the data files,
 * that opening a crashed database or reading it afterwards may read. The kinds the crashed copy has
 * take turns (in the order of {@link #KINDS}), so a short run covers them all; within a kind the
 * file, page and byte are random. A kind outside the golden list (a file a later version adds) is
 * still found, and the test of this class fails until the list names it.
 *
 * <p>Data-file pages are told apart by their header as the crashed copy holds it (page type at
 * byte 4, object id at byte 24; docs/format/data-file.md): the catalog's B+tree is object
 * {@link Catalog#CATALOG_OBJECT_ID}, and a columnstore table's metadata (rowgroup directory, delta
 * rowgroups, delete bitmap) are B+trees tagged with the table's object id, which names its
 * {@code columnstore/<id>/} folder. A page a crash left unwritten reads as FREE (all zeros).
 */
final class CrashFlipTargets {
    static final String WAL = "wal/*.wal";
    static final String CONTROL = "control";
    static final String PROPERTIES = "columba.properties";
    static final String FILE_MANIFEST = "data/files.properties";
    static final String ROWGROUP = "columnstore/*.crg";
    static final String DICTIONARY = "columnstore/*.cdict";
    static final String FILE_HEADER = "data page: file header";
    static final String GLOBAL_ALLOCATION_MAP = "data page: global allocation map";
    static final String BOOT = "data page: boot";
    static final String CATALOG = "data page: catalog B+tree";
    static final String OBJECT_ALLOCATION_MAP = "data page: object allocation map";
    static final String TABLE_LEAF = "data page: rowstore B+tree leaf";
    static final String TABLE_INTERNAL = "data page: rowstore B+tree internal";
    static final String HEAP = "data page: heap";
    static final String OVERFLOW = "data page: overflow";
    static final String COLUMNSTORE_METADATA = "data page: columnstore metadata B+tree";
    static final String FREE = "data page: free (all zeros)";

    /** The golden list: every kind a flip after a crash is aimed at, in the order they take turns. */
    static final List<String> KINDS = List.of(WAL, CONTROL, CATALOG, TABLE_LEAF, COLUMNSTORE_METADATA, ROWGROUP,
            DICTIONARY, OBJECT_ALLOCATION_MAP, BOOT, GLOBAL_ALLOCATION_MAP, FILE_HEADER, TABLE_INTERNAL, HEAP, OVERFLOW,
            FREE, PROPERTIES, FILE_MANIFEST);

    /**
     * The kinds that are whole files a checksum covers byte for byte (control.md; columba.properties
     * from directory format version 3 and data/files.properties from manifest version 2,
     * database-directory.md), read at every opening before anything writes them: every flip there
     * must be detected with the file named. Each is also the file's path relative to the database.
     */
    static final Set<String> CHECKSUMMED = Set.of(CONTROL, PROPERTIES, FILE_MANIFEST);

    /** One byte to flip: the kind it stands for, the file (relative to the database), the offset. */
    record Target(String kind, Path file, long offset) {
    }

    /** A place in a file: a whole file (offset anywhere), or one page of a data file. */
    record Place(Path file, long pageStart, long length) {
    }

    private CrashFlipTargets() {
    }

    /**
     * The byte flip {@code index} hits in the crashed copy {@code database}: of the kinds the copy
     * has, in the order of {@link #KINDS}, kind {@code index} modulo their number; a random place of
     * it. The log's newest segment, where the records since the last checkpoint are, is taken three
     * times in four.
     */
    static Target choose(Path database, int index, SplittableRandom random) throws IOException {
        Map<String, List<Place>> places = places(database);
        List<String> present = KINDS.stream().filter(places::containsKey).toList();
        if (present.isEmpty()) {
            throw new IOException("no file to flip in " + database);
        }
        String kind = present.get(index % present.size());
        List<Place> candidates = places.get(kind);
        Place place = kind.equals(WAL) && random.nextInt(4) > 0 ? candidates.getLast()
                : candidates.get(random.nextInt(candidates.size()));
        return new Target(kind, place.file(), place.pageStart() + random.nextLong(place.length()));
    }

    /** Every place of every kind in {@code database}, files in name order. */
    static Map<String, List<Place>> places(Path database) throws IOException {
        Map<String, List<Place>> places = new LinkedHashMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(database)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        Set<Integer> columnstoreTables = new HashSet<>();
        for (Path file : files) {
            Path relative = database.relativize(file);
            if (relative.getNameCount() == 3 && relative.getName(0).toString().equals("columnstore")) {
                try {
                    columnstoreTables.add(Integer.parseInt(relative.getName(1).toString()));
                } catch (NumberFormatException e) {
                    // Not a table's folder: its files count by their extension only.
                }
            }
        }
        for (Path file : files) {
            Path relative = database.relativize(file);
            String name = relative.toString();
            long size = Files.size(file);
            if (size == 0 || relative.getName(0).toString().equals("damaged") || name.equals("lock")) {
                continue;
            }
            // Every data file, the primary one in data/ and a filegroup's wherever ADD FILE put it
            // (the checkpoint workload's are at the top): their pages are told apart by header.
            if (name.endsWith(".data")) {
                addPages(places, relative, file, size, columnstoreTables);
                continue;
            }
            // A file at the top (control, columba.properties) and the manifest are kinds of their own.
            String kind = relative.getNameCount() == 1 || name.equals(FILE_MANIFEST) ? name : FileDamageCampaign.kind(name);
            places.computeIfAbsent(kind, key -> new ArrayList<>()).add(new Place(relative, 0, size));
        }
        return places;
    }

    private static void addPages(Map<String, List<Place>> places, Path relative, Path file, long size,
                                 Set<Integer> columnstoreTables) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(PageFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            for (long pageStart = 0; pageStart + PageFormat.PAGE_SIZE <= size; pageStart += PageFormat.PAGE_SIZE) {
                header.clear();
                while (header.hasRemaining() && channel.read(header, pageStart + header.position()) > 0) {
                    // read the whole header
                }
                int type = header.get(PageFormat.TYPE_OFFSET) & 0xFF;
                int objectId = header.getInt(PageFormat.OBJECT_ID_OFFSET);
                String kind = switch (type) {
                    case 0 -> FREE;
                    case 1 -> FILE_HEADER;
                    case 2 -> GLOBAL_ALLOCATION_MAP;
                    case 3 -> BOOT;
                    case 4 -> OBJECT_ALLOCATION_MAP;
                    case 5, 6 -> objectId == Catalog.CATALOG_OBJECT_ID ? CATALOG
                            : columnstoreTables.contains(objectId) ? COLUMNSTORE_METADATA
                            : type == 5 ? TABLE_LEAF : TABLE_INTERNAL;
                    case 7 -> HEAP;
                    case 8 -> OVERFLOW;
                    default -> "data page: type " + type;
                };
                places.computeIfAbsent(kind, key -> new ArrayList<>())
                        .add(new Place(relative, pageStart, PageFormat.PAGE_SIZE));
            }
        }
    }
}
