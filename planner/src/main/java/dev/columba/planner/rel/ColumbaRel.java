package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/**
 * A node of Columba's physical convention: it knows the batch-mode operator it becomes and how
 * {@code EXPLAIN} describes it. Planning ends in a tree of these; each execution instantiates it
 * afresh (see {@link Execution}).
 */
public interface ColumbaRel extends RelNode {
    /** Columba's calling convention: batches of Arrow vectors pulled through core's operators. */
    Convention CONVENTION = new Convention.Impl("COLUMBA", ColumbaRel.class);

    /** The operator for one execution, its inputs instantiated through {@code execution}. */
    Operator instantiate(Execution execution);

    /** What {@code EXPLAIN} prints for this node besides its estimated rows and execution mode. */
    String explainDetail();
}
