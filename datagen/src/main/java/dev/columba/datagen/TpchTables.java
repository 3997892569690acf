package dev.columba.datagen;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.datagen.TpchTableMapping.RowsPerParent;
import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.LineItem;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.Part;
import io.trino.tpch.PartGenerator;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.Region;
import io.trino.tpch.Supplier;
import io.trino.tpch.SupplierGenerator;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * The Columba schema of each TPC-H table and the copy of the library's entities into rows.
 *
 * <p>Types follow the TPC-H specification (revision 3, clause 1.4) with these choices:
 * identifiers are INT, except order keys, which are BIGINT because they are sparse (4 per order
 * index) and pass 2^31 near scale factor 350; decimals are DECIMAL(15,2); dates DATE; the one-letter
 * flags ({@code l_returnflag}, {@code l_linestatus}, {@code o_orderstatus}) CHAR(1); every other
 * text column, whether the specification says CHAR(n) or VARCHAR(n), is VARCHAR(n) of the
 * specification's width, so values compare without blank padding. Nothing is NULL.
 *
 * <p>Values repeat a lot in TPC-H (discounts, quantities, dates, flags), so those are taken from
 * caches of immutable instances instead of being allocated per row.
 */
final class TpchTables {
    private static final SqlType KEY = SqlType.INT;
    private static final SqlType MONEY = SqlType.decimal(15, 2);
    private static final SqlType FLAG = SqlType.character(1);

    /** Epoch day of the first date the library generates, 1992-01-01, and the span it covers. */
    private static final int FIRST_DATE_DAY = Math.toIntExact(LocalDate.of(1992, 1, 1).toEpochDay());
    private static final LocalDate[] DATES = new LocalDate[Math.toIntExact(
            LocalDate.of(1999, 1, 1).toEpochDay()) - FIRST_DATE_DAY];
    /** Hundredths 0.00 to 1.00, for discounts and taxes (whole percents). */
    private static final BigDecimal[] PERCENTS = new BigDecimal[101];
    /** Whole quantities 0 to 50 at scale 2. */
    private static final BigDecimal[] QUANTITIES = new BigDecimal[51];

    static {
        for (int day = 0; day < DATES.length; day++) {
            DATES[day] = LocalDate.ofEpochDay(FIRST_DATE_DAY + day);
        }
        for (int percent = 0; percent < PERCENTS.length; percent++) {
            PERCENTS[percent] = BigDecimal.valueOf(percent, 2);
        }
        for (int quantity = 0; quantity < QUANTITIES.length; quantity++) {
            QUANTITIES[quantity] = BigDecimal.valueOf(quantity * 100L, 2);
        }
    }

    private TpchTables() {
    }

    static TpchTableMapping<?> mapping(TpchGenerator.Table table) {
        return switch (table) {
            case REGION -> REGION;
            case NATION -> NATION;
            case PART -> PART;
            case SUPPLIER -> SUPPLIER;
            case PARTSUPP -> PARTSUPP;
            case CUSTOMER -> CUSTOMER;
            case ORDERS -> ORDERS;
            case LINEITEM -> LINEITEM;
        };
    }

    private static final RowsPerParent ONE_PER_PARENT = new RowsPerParent.Fixed(1);

    private static final TpchTableMapping<Region> REGION = new TpchTableMapping<>(
            TpchTable.REGION,
            TableSchema.of(
                    Column.notNull("r_regionkey", KEY),
                    Column.notNull("r_name", SqlType.varchar(25)),
                    Column.notNull("r_comment", SqlType.varchar(152))),
            -1, 5, ONE_PER_PARENT,
            (region, row) -> {
                row[0] = (int) region.regionKey();
                row[1] = region.name();
                row[2] = region.comment();
            });

    private static final TpchTableMapping<Nation> NATION = new TpchTableMapping<>(
            TpchTable.NATION,
            TableSchema.of(
                    Column.notNull("n_nationkey", KEY),
                    Column.notNull("n_name", SqlType.varchar(25)),
                    Column.notNull("n_regionkey", KEY),
                    Column.notNull("n_comment", SqlType.varchar(152))),
            -1, 25, ONE_PER_PARENT,
            (nation, row) -> {
                row[0] = (int) nation.nationKey();
                row[1] = nation.name();
                row[2] = (int) nation.regionKey();
                row[3] = nation.comment();
            });

    private static final TpchTableMapping<Part> PART = new TpchTableMapping<>(
            TpchTable.PART,
            TableSchema.of(
                    Column.notNull("p_partkey", KEY),
                    Column.notNull("p_name", SqlType.varchar(55)),
                    Column.notNull("p_mfgr", SqlType.varchar(25)),
                    Column.notNull("p_brand", SqlType.varchar(10)),
                    Column.notNull("p_type", SqlType.varchar(25)),
                    Column.notNull("p_size", SqlType.INT),
                    Column.notNull("p_container", SqlType.varchar(10)),
                    Column.notNull("p_retailprice", MONEY),
                    Column.notNull("p_comment", SqlType.varchar(23))),
            PartGenerator.SCALE_BASE, 0, ONE_PER_PARENT,
            (part, row) -> {
                row[0] = (int) part.partKey();
                row[1] = part.name();
                row[2] = part.manufacturer();
                row[3] = part.brand();
                row[4] = part.type();
                row[5] = part.size();
                row[6] = part.container();
                row[7] = money(part.retailPriceInCents());
                row[8] = part.comment();
            });

    private static final TpchTableMapping<Supplier> SUPPLIER = new TpchTableMapping<>(
            TpchTable.SUPPLIER,
            TableSchema.of(
                    Column.notNull("s_suppkey", KEY),
                    Column.notNull("s_name", SqlType.varchar(25)),
                    Column.notNull("s_address", SqlType.varchar(40)),
                    Column.notNull("s_nationkey", KEY),
                    Column.notNull("s_phone", SqlType.varchar(15)),
                    Column.notNull("s_acctbal", MONEY),
                    Column.notNull("s_comment", SqlType.varchar(101))),
            SupplierGenerator.SCALE_BASE, 0, ONE_PER_PARENT,
            (supplier, row) -> {
                row[0] = (int) supplier.supplierKey();
                row[1] = supplier.name();
                row[2] = supplier.address();
                row[3] = (int) supplier.nationKey();
                row[4] = supplier.phone();
                row[5] = money(supplier.accountBalanceInCents());
                row[6] = supplier.comment();
            });

    /** The library generates partsupp by part, {@value #SUPPLIERS_PER_PART} rows per part. */
    private static final int SUPPLIERS_PER_PART = 4;

    private static final TpchTableMapping<PartSupplier> PARTSUPP = new TpchTableMapping<>(
            TpchTable.PART_SUPPLIER,
            TableSchema.of(
                    Column.notNull("ps_partkey", KEY),
                    Column.notNull("ps_suppkey", KEY),
                    Column.notNull("ps_availqty", SqlType.INT),
                    Column.notNull("ps_supplycost", MONEY),
                    Column.notNull("ps_comment", SqlType.varchar(199))),
            PartGenerator.SCALE_BASE, 0, new RowsPerParent.Fixed(SUPPLIERS_PER_PART),
            (partSupplier, row) -> {
                row[0] = (int) partSupplier.partKey();
                row[1] = (int) partSupplier.supplierKey();
                row[2] = partSupplier.availableQuantity();
                row[3] = money(partSupplier.supplyCostInCents());
                row[4] = partSupplier.comment();
            });

    private static final TpchTableMapping<Customer> CUSTOMER = new TpchTableMapping<>(
            TpchTable.CUSTOMER,
            TableSchema.of(
                    Column.notNull("c_custkey", KEY),
                    Column.notNull("c_name", SqlType.varchar(25)),
                    Column.notNull("c_address", SqlType.varchar(40)),
                    Column.notNull("c_nationkey", KEY),
                    Column.notNull("c_phone", SqlType.varchar(15)),
                    Column.notNull("c_acctbal", MONEY),
                    Column.notNull("c_mktsegment", SqlType.varchar(10)),
                    Column.notNull("c_comment", SqlType.varchar(117))),
            CustomerGenerator.SCALE_BASE, 0, ONE_PER_PARENT,
            (customer, row) -> {
                row[0] = (int) customer.customerKey();
                row[1] = customer.name();
                row[2] = customer.address();
                row[3] = (int) customer.nationKey();
                row[4] = customer.phone();
                row[5] = money(customer.accountBalanceInCents());
                row[6] = customer.marketSegment();
                row[7] = customer.comment();
            });

    private static final TpchTableMapping<Order> ORDERS = new TpchTableMapping<>(
            TpchTable.ORDERS,
            TableSchema.of(
                    Column.notNull("o_orderkey", SqlType.BIGINT),
                    Column.notNull("o_custkey", KEY),
                    Column.notNull("o_orderstatus", FLAG),
                    Column.notNull("o_totalprice", MONEY),
                    Column.notNull("o_orderdate", SqlType.DATE),
                    Column.notNull("o_orderpriority", SqlType.varchar(15)),
                    Column.notNull("o_clerk", SqlType.varchar(15)),
                    Column.notNull("o_shippriority", SqlType.INT),
                    Column.notNull("o_comment", SqlType.varchar(79))),
            OrderGenerator.SCALE_BASE, 0, ONE_PER_PARENT,
            (order, row) -> {
                row[0] = order.orderKey();
                row[1] = (int) order.customerKey();
                row[2] = orderStatus(order.orderStatus());
                row[3] = money(order.totalPriceInCents());
                row[4] = date(order.orderDate());
                row[5] = order.orderPriority();
                row[6] = order.clerk();
                row[7] = order.shipPriority();
                row[8] = order.comment();
            });

    private static final TpchTableMapping<LineItem> LINEITEM = new TpchTableMapping<>(
            TpchTable.LINE_ITEM,
            TableSchema.of(
                    Column.notNull("l_orderkey", SqlType.BIGINT),
                    Column.notNull("l_partkey", KEY),
                    Column.notNull("l_suppkey", KEY),
                    Column.notNull("l_linenumber", SqlType.INT),
                    Column.notNull("l_quantity", MONEY),
                    Column.notNull("l_extendedprice", MONEY),
                    Column.notNull("l_discount", MONEY),
                    Column.notNull("l_tax", MONEY),
                    Column.notNull("l_returnflag", FLAG),
                    Column.notNull("l_linestatus", FLAG),
                    Column.notNull("l_shipdate", SqlType.DATE),
                    Column.notNull("l_commitdate", SqlType.DATE),
                    Column.notNull("l_receiptdate", SqlType.DATE),
                    Column.notNull("l_shipinstruct", SqlType.varchar(25)),
                    Column.notNull("l_shipmode", SqlType.varchar(10)),
                    Column.notNull("l_comment", SqlType.varchar(44))),
            OrderGenerator.SCALE_BASE, 0, new RowsPerParent.LineItemsPerOrder(),
            (lineItem, row) -> {
                row[0] = lineItem.orderKey();
                row[1] = (int) lineItem.partKey();
                row[2] = (int) lineItem.supplierKey();
                row[3] = lineItem.lineNumber();
                row[4] = quantity(lineItem.quantity());
                row[5] = money(lineItem.extendedPriceInCents());
                row[6] = percent(lineItem.discountPercent());
                row[7] = percent(lineItem.taxPercent());
                row[8] = lineItem.returnFlag();
                row[9] = lineItem.status();
                row[10] = date(lineItem.shipDate());
                row[11] = date(lineItem.commitDate());
                row[12] = date(lineItem.receiptDate());
                row[13] = lineItem.shipInstructions();
                row[14] = lineItem.shipMode();
                row[15] = lineItem.comment();
            });

    static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    static BigDecimal percent(long percent) {
        return percent >= 0 && percent < PERCENTS.length ? PERCENTS[(int) percent] : BigDecimal.valueOf(percent, 2);
    }

    static BigDecimal quantity(long quantity) {
        return quantity >= 0 && quantity < QUANTITIES.length
                ? QUANTITIES[(int) quantity]
                : BigDecimal.valueOf(Math.multiplyExact(quantity, 100L), 2);
    }

    /** The library's dates are days since 1970-01-01. */
    static LocalDate date(int epochDay) {
        int day = epochDay - FIRST_DATE_DAY;
        return day >= 0 && day < DATES.length ? DATES[day] : LocalDate.ofEpochDay(epochDay);
    }

    private static String orderStatus(char status) {
        return switch (status) {
            case 'F' -> "F";
            case 'O' -> "O";
            case 'P' -> "P";
            default -> String.valueOf(status);
        };
    }
}
