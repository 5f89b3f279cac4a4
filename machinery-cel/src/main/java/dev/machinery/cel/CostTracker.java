package dev.machinery.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import java.util.Collection;
import java.util.Map;

/**
 * The runtime cost of one evaluation: one unit for each expression evaluated (inside comprehensions
 * each time round), and a unit for every ten characters of a string or elements of a list or map an
 * expression yields, so that work on large values costs what it does. When the cost passes the
 * limit the evaluation stops with {@link LimitReached}. One evaluation at a time: not thread-safe.
 */
final class CostTracker implements CelEvaluationListener {
  private final long limit;
  private long cost;

  CostTracker(long limit) {
    this.limit = limit;
  }

  @Override
  public void callback(CelExpr expr, Object result) {
    long add = 1;
    if (result instanceof String text) {
      add += text.length() / 10;
    } else if (result instanceof Collection<?> items) {
      add += items.size() / 10;
    } else if (result instanceof Map<?, ?> map) {
      add += map.size() / 10;
    }
    cost += add;
    if (cost > limit) {
      throw new LimitReached();
    }
  }

  long cost() {
    return cost;
  }

  /** Thrown out of an evaluation whose cost passed the limit. */
  static final class LimitReached extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimitReached() {
      super("operation cancelled: actual cost limit exceeded", null, false, false);
    }
  }
}
