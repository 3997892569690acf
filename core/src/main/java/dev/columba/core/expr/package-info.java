/**
 * Scalar expressions: the sealed {@link dev.columba.core.expr.Expr} family a planner builds, the
 * reference {@link dev.columba.core.expr.Evaluator} that defines their SQL meaning on Java values,
 * and the {@link dev.columba.core.expr.ExpressionCompiler} that turns them into vectorized kernels
 * over Arrow batches, falling back to row-at-a-time evaluation where no kernel exists (and saying so).
 * Owns no operators (see {@code dev.columba.core.exec}) and no aggregate functions.
 */
package dev.columba.core.expr;
