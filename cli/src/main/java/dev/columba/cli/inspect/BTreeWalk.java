package dev.columba.cli.inspect;

import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the entries of one B+tree of the data file in key order, as storage's cursor would but
 * without trusting anything: it descends the leftmost children to the first leaf, then follows the
 * leaf chain. A page outside the file, a cycle, a damaged page or a page of another object ends the
 * walk with a report; a damaged cell is reported and skipped. The entries read so far stand.
 */
final class BTreeWalk {
    private BTreeWalk() {
    }

    /**
     * The tree to walk.
     *
     * @param name     how messages name the tree, e.g. {@code "the catalog"}
     * @param leafName how messages name one of its leaves, e.g. {@code "catalog leaf"}
     * @param owner    how messages name the object whose pages these must be, e.g. {@code "table 100 sales"}
     */
    record Tree(long rootPage, int objectId, String name, String leafName, String owner) {
    }

    /**
     * What a walk read.
     *
     * @param complete  whether every page and entry could be read
     * @param leafPages the leaves reached, so that a page can be told to belong to this tree
     */
    record Walk(boolean complete, Set<Long> leafPages) {
    }

    /** Receives each sound leaf cell in key order; {@code where} names file, page and slot for messages. */
    @FunctionalInterface
    interface LeafVisitor {
        /** Returns false when the entry could not be used (its problem is already reported). */
        boolean visit(MemorySegment page, Cell.Leaf leaf, String where);
    }

    /** Walks {@code tree}, reporting every problem. */
    static Walk walk(DataFileReader reader, Tree tree, Findings findings, String indent, LeafVisitor visitor) {
        // Pages seen on the way down, then along the leaf chain: coming back to one is a cycle.
        Set<Long> visited = new HashSet<>();
        long pageId = tree.rootPage();
        while (true) {
            MemorySegment page = treePage(reader, tree, pageId, visited, findings, indent, tree.name() + " root path");
            if (page == null) {
                return new Walk(false, Set.of());
            }
            if (Page.type(page) == PageType.BTREE_LEAF) {
                break;
            }
            pageId = Page.special(page);
        }
        boolean complete = true;
        visited.clear();
        Set<Long> leaves = new HashSet<>();
        while (pageId != PageFormat.NO_PAGE) {
            MemorySegment page = treePage(reader, tree, pageId, visited, findings, indent, tree.name() + " leaf chain");
            if (page == null) {
                return new Walk(false, leaves);
            }
            if (Page.type(page) != PageType.BTREE_LEAF) {
                findings.report(indent, reader.name() + " page " + pageId + ": " + tree.name() + " leaf chain leads to a "
                        + Page.type(page) + " page");
                return new Walk(false, leaves);
            }
            leaves.add(pageId);
            String slotArray = Cell.slotArrayProblem(page);
            if (slotArray != null) {
                findings.report(indent, reader.name() + " page " + pageId + " (" + tree.leafName() + "): " + slotArray);
                complete = false;
            }
            for (Cell cell : Cell.read(page, PageType.BTREE_LEAF)) {
                String where = reader.name() + " page " + pageId + " (" + tree.leafName() + ") slot " + cell.slot();
                switch (cell) {
                    case Cell.Leaf leaf -> complete &= visitor.visit(page, leaf, where);
                    case Cell.Damaged damaged -> {
                        findings.report(indent, where + ": " + damaged.problem());
                        complete = false;
                    }
                    case Cell.Internal _, Cell.HeapRow _, Cell.Tombstone _ -> throw new IllegalStateException("leaf cells only");
                }
            }
            pageId = Page.next(page);
        }
        return new Walk(complete, leaves);
    }

    /** Reads a page the walk leads to, or reports why it cannot be used and returns null. */
    private static MemorySegment treePage(DataFileReader reader, Tree tree, long pageId, Set<Long> visited,
                                          Findings findings, String indent, String path) {
        if (!reader.contains(pageId) || pageId == PageFormat.NO_PAGE) {
            findings.report(indent, reader.name() + ": " + path + " leads to page " + pageId + ", outside the file's "
                    + reader.pageCount() + " pages; " + tree.name() + " cannot be read further");
            return null;
        }
        if (!visited.add(pageId)) {
            findings.report(indent, reader.name() + ": " + path + " comes back to page " + pageId + " (a cycle)");
            return null;
        }
        MemorySegment page = reader.read(pageId);
        PageInfo info = PageInfo.of(pageId, page);
        if (!info.sound()) {
            findings.report(indent, info.finding(reader.name()));
            findings.report(indent, reader.name() + ": " + tree.name() + " cannot be read past page " + pageId);
            return null;
        }
        PageType type = info.type();
        if ((type != PageType.BTREE_LEAF && type != PageType.BTREE_INTERNAL) || info.objectId() != tree.objectId()) {
            findings.report(indent, reader.name() + " page " + pageId + ": " + path + " leads to a " + info.typeName()
                    + " page of object " + info.objectId() + ", expected a B+tree page of " + tree.owner() + " (object "
                    + tree.objectId() + ")");
            return null;
        }
        return page;
    }
}
