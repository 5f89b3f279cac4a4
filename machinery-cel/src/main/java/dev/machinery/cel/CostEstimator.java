package dev.machinery.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The static cost estimate of a checked CEL expression, computed the way cel-go's {@code
 * checker.Cost} computes it with Kubernetes' {@code library.CostEstimator}: each identifier and
 * field selection costs 1, a function call 1 plus its arguments unless the function has a cost of
 * its own (string operations a tenth of a unit a character, regular expressions the product of the
 * text and the pattern, Kubernetes' libraries as Kubernetes prices them), a comprehension its range
 * and accumulator plus, for each element its range may have, its loop condition and step. The sizes
 * of values come from the schema ({@link SchemaSize}), of literals from their text, of results from
 * the functions that make them.
 *
 * <p>Costs and sizes are unsigned 64-bit numbers (held in {@code long}s) that saturate instead of
 * overflowing, as cel-go's. One estimate at a time: not thread-safe.
 */
final class CostEstimator {
  /** The largest unsigned 64-bit number, cel-go's "unknown" size and cost. */
  static final long MAX = -1L;

  private static final double TWO_TO_64 = 0x1p64;
  private static final double STRING_TRAVERSAL = 0.1;
  private static final double REGEX_LENGTH = 0.25;
  private static final Range UNKNOWN = new Range(0, MAX);
  private static final Range ONE = new Range(1, 1);
  private static final Range ZERO = new Range(0, 0);

  /**
   * A range of sizes or costs, unsigned.
   *
   * @param min the least
   * @param max the most
   */
  record Range(long min, long max) {
    Range add(Range o) {
      return new Range(addSat(min, o.min), addSat(max, o.max));
    }

    Range multiply(Range o) {
      return new Range(mulSat(min, o.min), mulSat(max, o.max));
    }

    Range byFactor(double factor) {
      return new Range(byFactor(min, factor), byFactor(max, factor));
    }

    Range union(Range o) {
      return new Range(
          Long.compareUnsigned(o.min, min) < 0 ? o.min : min,
          Long.compareUnsigned(o.max, max) > 0 ? o.max : max);
    }

    private static long byFactor(long x, double factor) {
      double xf = unsignedToDouble(x);
      if (xf > 0 && factor > 0 && xf > TWO_TO_64 / factor) {
        return MAX;
      }
      double ceil = Math.ceil(xf * factor);
      if (ceil >= TWO_TO_64) {
        return MAX;
      }
      return ceil >= 0x1p63 ? (long) (ceil - 0x1p63) + Long.MIN_VALUE : (long) ceil;
    }
  }

  static long addSat(long x, long y) {
    if (y != 0 && Long.compareUnsigned(x, MAX - y) > 0) {
      return MAX;
    }
    return x + y;
  }

  static long mulSat(long x, long y) {
    if (y != 0 && Long.compareUnsigned(x, Long.divideUnsigned(MAX, y)) > 0) {
      return MAX;
    }
    return x * y;
  }

  static double unsignedToDouble(long x) {
    return x >= 0 ? x : (double) (x >>> 1) * 2.0 + (x & 1);
  }

  private enum Container {
    LIST,
    MAP,
    UNKNOWN
  }

  private record EntrySize(Container container, Range key, Range val) {
    EntrySize union(EntrySize other) {
      if (other == null) {
        return null;
      }
      return new EntrySize(container, key.union(other.key), val.union(other.val));
    }
  }

  /** A comprehension's variable: its path (null when unknown), size and entry size. */
  private record LocalVar(List<String> path, Range size, EntrySize entrySize) {}

  /** An expression as the cost functions see it: its path, type and computed size. */
  private record Node(List<String> path, CelType type, CelExpr expr, Range size) {}

  private record CallEstimate(Range cost, Range resultSize) {}

  private final CelAbstractSyntaxTree ast;
  private final BiFunction<List<String>, CelType, Range> schemaSizes;
  private final Map<Long, List<String>> paths = new HashMap<>();
  private final Map<String, Deque<LocalVar>> locals = new HashMap<>();
  private final Map<Long, Range> sizes = new HashMap<>();
  private final Map<Long, EntrySize> entrySizes = new HashMap<>();

  private CostEstimator(
      CelAbstractSyntaxTree ast, BiFunction<List<String>, CelType, Range> schemaSizes) {
    this.ast = ast;
    this.schemaSizes = schemaSizes;
  }

  /**
   * The estimated cost of a checked expression whose variables' values have the given sizes.
   *
   * @param ast the checked expression
   * @param root the sizes of the values of {@code self} (and {@code oldSelf}), or null
   * @return the least and the most the expression may cost
   */
  static Range estimate(CelAbstractSyntaxTree ast, SchemaSize root) {
    BiFunction<List<String>, CelType, Range> sizes =
        (path, type) -> {
          if (root == null || path == null || path.isEmpty()) {
            return null;
          }
          SchemaSize at = root.at(path.subList(1, path.size()));
          return at == null ? null : new Range(0, at.maxElements());
        };
    return estimate(ast, sizes);
  }

  /**
   * The estimated cost of a checked expression with another source of sizes, as Kubernetes' {@code
   * SizeEstimator}: given a value's path and type, its size, or null when unknown.
   */
  static Range estimate(CelAbstractSyntaxTree ast, BiFunction<List<String>, CelType, Range> sizes) {
    return new CostEstimator(ast, sizes).cost(ast.getExpr());
  }

  private Range cost(CelExpr e) {
    switch (e.getKind()) {
      case CONSTANT:
        return ZERO;
      case IDENT:
        {
          LocalVar local = peek(e.ident().name());
          paths.put(e.id(), local != null ? local.path() : List.of(e.ident().name()));
          return ONE;
        }
      case SELECT:
        return costSelect(e);
      case CALL:
        return costCall(e);
      case LIST:
        return costList(e);
      case MAP:
        return costMap(e);
      case STRUCT:
        {
          Range sum = ZERO;
          for (CelExpr.CelStruct.Entry entry : e.struct().entries()) {
            sum = sum.add(cost(entry.value()));
          }
          return sum.add(new Range(40, 40));
        }
      case COMPREHENSION:
        return isBind(e) ? costBind(e) : costComprehension(e);
      default:
        return ZERO;
    }
  }

  private Range costSelect(CelExpr e) {
    CelExpr.CelSelect select = e.select();
    if (select.testOnly()) {
      // Kubernetes gives presence tests no cost (cel-go's PresenceTestHasCost(false)).
      return cost(select.operand());
    }
    Range sum = cost(select.operand());
    CelKind kind = type(select.operand()).kind();
    if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
      sum = sum.add(ONE);
    }
    paths.put(e.id(), append(path(select.operand()), select.field()));
    return sum;
  }

  private Range costCall(CelExpr e) {
    CelExpr.CelCall call = e.call();
    if (call.function().equals("dyn") && call.args().size() == 1) {
      CelExpr arg = call.args().get(0);
      Range argCost = cost(arg);
      setSize(e, size(arg));
      setEntrySize(e, entrySize(arg));
      return ONE.add(argCost);
    }
    List<CelExpr> args = call.args();
    List<Node> argNodes = new ArrayList<>(args.size());
    List<Range> argCosts = new ArrayList<>(args.size());
    for (CelExpr arg : args) {
      argCosts.add(cost(arg));
      argNodes.add(node(arg));
    }
    CelReference reference = ast.getReferenceMap().get(e.id());
    List<String> overloads = reference == null ? List.of() : reference.overloadIds();
    if (overloads.isEmpty()) {
      return ZERO;
    }
    Range sum = ZERO;
    Node target = null;
    if (call.target().isPresent()) {
      sum = sum.add(cost(call.target().get()));
      target = node(call.target().get());
    }
    Range fnCost = new Range(MAX, 0);
    Range resultSize = null;
    for (String overload : overloads) {
      CallEstimate estimate =
          functionCost(e, call.function(), overload, target, argNodes, argCosts);
      fnCost = fnCost.union(estimate.cost());
      if (estimate.resultSize() != null) {
        resultSize =
            resultSize == null ? estimate.resultSize() : resultSize.union(estimate.resultSize());
      }
      if (overload.equals("index_list") && !args.isEmpty()) {
        EntrySize entry = entrySize(args.get(0));
        resultSize = entry == null ? null : entry.val();
        paths.put(e.id(), append(path(args.get(0)), "@items"));
      } else if (overload.equals("index_map") && !args.isEmpty()) {
        EntrySize entry = entrySize(args.get(0));
        resultSize = entry == null ? null : entry.val();
        paths.put(e.id(), append(path(args.get(0)), "@values"));
      }
      if (resultSize == null) {
        resultSize = size(e);
      }
    }
    setSize(e, resultSize);
    return sum.add(fnCost);
  }

  private Range costList(CelExpr e) {
    List<CelExpr> elements = e.list().elements();
    Range sum = ZERO;
    Range itemSize = new Range(elements.isEmpty() ? 0 : MAX, 0);
    for (CelExpr element : elements) {
      sum = sum.add(cost(element));
      itemSize = itemSize.union(sizeOrUnknown(element));
    }
    setEntrySize(e, new EntrySize(Container.LIST, ONE, itemSize));
    return sum.add(new Range(10, 10));
  }

  private Range costMap(CelExpr e) {
    List<CelExpr.CelMap.Entry> entries = e.map().entries();
    Range sum = ZERO;
    Range keySize = new Range(entries.isEmpty() ? 0 : MAX, 0);
    Range valSize = new Range(entries.isEmpty() ? 0 : MAX, 0);
    for (CelExpr.CelMap.Entry entry : entries) {
      sum = sum.add(cost(entry.key()));
      sum = sum.add(cost(entry.value()));
      keySize = keySize.union(sizeOrUnknown(entry.key()));
      valSize = valSize.union(sizeOrUnknown(entry.value()));
    }
    setEntrySize(e, new EntrySize(Container.MAP, keySize, valSize));
    return sum.add(new Range(30, 30));
  }

  private Range costComprehension(CelExpr e) {
    CelExpr.CelComprehension comp = e.comprehension();
    Range sum = cost(comp.iterRange());
    sum = sum.add(cost(comp.accuInit()));
    pushLocal(comp.accuVar(), comp.accuInit());
    boolean twoVars = comp.iterVar2() != null && !comp.iterVar2().isEmpty();
    if (twoVars) {
      pushIter(comp.iterVar(), comp.iterRange(), true);
      pushIter(comp.iterVar2(), comp.iterRange(), false);
    } else {
      pushIterSingle(comp.iterVar(), comp.iterRange());
    }
    Range loopCost = cost(comp.loopCondition());
    Range stepCost = cost(comp.loopStep());
    pop(comp.iterVar());
    if (twoVars) {
      pop(comp.iterVar2());
    }
    sum = sum.add(cost(comp.result()));
    pop(comp.accuVar());
    Range rangeCount = sizeOrUnknown(comp.iterRange());
    sum = sum.add(rangeCount.multiply(stepCost.add(loopCost)));
    switch (comp.accuInit().getKind()) {
      case CONSTANT:
        setSize(e, size(comp.accuInit()));
        break;
      case LIST:
      case MAP:
        setSize(e, rangeCount);
        EntrySize step = entrySize(comp.loopStep());
        if (step != null) {
          setEntrySize(e, step);
        }
        break;
      default:
        break;
    }
    return sum;
  }

  private boolean isBind(CelExpr e) {
    CelExpr.CelComprehension comp = e.comprehension();
    return comp.iterRange().getKind() == CelExpr.ExprKind.Kind.LIST
        && comp.iterRange().list().elements().isEmpty()
        && comp.loopCondition().getKind() == CelExpr.ExprKind.Kind.CONSTANT
        && comp.loopCondition().constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
        && !comp.loopCondition().constant().booleanValue()
        && !isAccumulator(comp.accuVar());
  }

  private Range costBind(CelExpr e) {
    CelExpr.CelComprehension comp = e.comprehension();
    Range sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
    pushLocal(comp.accuVar(), comp.accuInit());
    sum = sum.add(cost(comp.result()));
    pop(comp.accuVar());
    setSize(e, size(comp.result()));
    setEntrySize(e, entrySize(comp.result()));
    return sum;
  }

  private static boolean isAccumulator(String name) {
    return name.equals("__result__") || name.equals("@result");
  }

  private void pushLocal(String name, CelExpr e) {
    locals
        .computeIfAbsent(name, n -> new ArrayDeque<>())
        .push(new LocalVar(path(e), size(e), entrySize(e)));
  }

  private void pushIter(String name, CelExpr range, boolean key) {
    EntrySize entry = entrySize(range);
    Container container = container(entry, range);
    String sub =
        key
            ? (container == Container.LIST ? "@indices" : "@keys")
            : (container == Container.LIST ? "@items" : "@values");
    Range size = entry == null ? null : key ? entry.key() : entry.val();
    locals
        .computeIfAbsent(name, n -> new ArrayDeque<>())
        .push(new LocalVar(append(path(range), sub), size, null));
  }

  private void pushIterSingle(String name, CelExpr range) {
    EntrySize entry = entrySize(range);
    Range size = entry == null ? null : entry.key();
    String sub = "@keys";
    if (container(entry, range) == Container.LIST) {
      size = entry == null ? null : entry.val();
      sub = "@items";
    }
    locals
        .computeIfAbsent(name, n -> new ArrayDeque<>())
        .push(new LocalVar(append(path(range), sub), size, null));
  }

  private Container container(EntrySize entry, CelExpr range) {
    if (entry != null && entry.container() != Container.UNKNOWN) {
      return entry.container();
    }
    CelKind kind = type(range).kind();
    return kind == CelKind.LIST
        ? Container.LIST
        : kind == CelKind.MAP ? Container.MAP : Container.UNKNOWN;
  }

  private LocalVar peek(String name) {
    Deque<LocalVar> stack = locals.get(name);
    return stack == null || stack.isEmpty() ? null : stack.peek();
  }

  private void pop(String name) {
    Deque<LocalVar> stack = locals.get(name);
    if (stack != null && !stack.isEmpty()) {
      stack.pop();
    }
  }

  private CelType type(CelExpr e) {
    return ast.getType(e.id()).orElse(SimpleType.DYN);
  }

  private List<String> path(CelExpr e) {
    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar local = peek(e.ident().name());
      if (local != null) {
        return local.path();
      }
    }
    return paths.get(e.id());
  }

  /** A path and one more name; a missing path counts as empty, as a nil slice in Go. */
  private static List<String> append(List<String> path, String name) {
    List<String> out = new ArrayList<>(path == null ? 1 : path.size() + 1);
    if (path != null) {
      out.addAll(path);
    }
    out.add(name);
    return List.copyOf(out);
  }

  private Node node(CelExpr e) {
    List<String> path = path(e);
    if (path != null && !path.isEmpty() && isAccumulator(path.get(0))) {
      path = null;
    }
    return new Node(path, type(e), e, size(e));
  }

  private void setSize(CelExpr e, Range size) {
    if (size != null) {
      sizes.put(e.id(), size);
    }
  }

  private void setEntrySize(CelExpr e, EntrySize size) {
    if (size != null) {
      entrySizes.put(e.id(), size);
    }
  }

  private Range sizeOrUnknown(CelExpr e) {
    Range size = size(e);
    return size == null ? UNKNOWN : size;
  }

  private static Range sizeOrUnknown(Node node) {
    return node == null || node.size() == null ? UNKNOWN : node.size();
  }

  private Range size(CelExpr e) {
    Range known = sizes.get(e.id());
    if (known != null) {
      return known;
    }
    Range literal = literalSize(e);
    if (literal != null) {
      return literal;
    }
    Range schema = schemaSizes.apply(path(e), type(e));
    if (schema != null) {
      sizes.put(e.id(), schema);
      return schema;
    }
    if (isScalar(type(e))) {
      return ONE;
    }
    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar local = peek(e.ident().name());
      if (local != null && local.size() != null) {
        return local.size();
      }
    }
    return null;
  }

  private EntrySize entrySize(CelExpr e) {
    EntrySize known = entrySizes.get(e.id());
    if (known != null) {
      return known;
    }
    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar local = peek(e.ident().name());
      if (local != null) {
        return local.entrySize();
      }
    }
    return null;
  }

  private static Range literalSize(CelExpr e) {
    long size;
    switch (e.getKind()) {
      case CONSTANT:
        CelConstant constant = e.constant();
        switch (constant.getKind()) {
          case STRING_VALUE:
            size = constant.stringValue().codePointCount(0, constant.stringValue().length());
            break;
          case BYTES_VALUE:
            size = constant.bytesValue().size();
            break;
          case BOOLEAN_VALUE:
          case DOUBLE_VALUE:
          case INT64_VALUE:
          case UINT64_VALUE:
          case NULL_VALUE:
          case DURATION_VALUE:
          case TIMESTAMP_VALUE:
            size = 1;
            break;
          default:
            return null;
        }
        break;
      case LIST:
        size = e.list().elements().size();
        break;
      case MAP:
        size = e.map().entries().size();
        break;
      default:
        return null;
    }
    return new Range(size, size);
  }

  private static boolean isScalar(CelType type) {
    switch (type.kind()) {
      case BOOL:
      case DOUBLE:
      case DURATION:
      case INT:
      case TIMESTAMP:
      case UINT:
        return true;
      case OPAQUE:
        return type.name().equals("optional_type")
            && !type.parameters().isEmpty()
            && isScalar(type.parameters().get(0));
      default:
        return false;
    }
  }

  private CallEstimate functionCost(
      CelExpr e,
      String function,
      String overload,
      Node target,
      List<Node> args,
      List<Range> argCosts) {
    Range argSum = ZERO;
    for (Range argCost : argCosts) {
      argSum = argSum.add(argCost);
    }
    CallEstimate kubernetes = KubernetesCosts.callCost(function, overload, target, args, this);
    if (kubernetes != null) {
      return new CallEstimate(kubernetes.cost().add(argSum), kubernetes.resultSize());
    }
    switch (overload) {
      case "string_to_bytes":
        if (args.size() == 1) {
          Range size = sizeOrUnknown(args.get(0));
          return new CallEstimate(
              size.byFactor(STRING_TRAVERSAL).add(argSum),
              new Range(size.min(), mulSat(size.max(), 4)));
        }
        break;
      case "bytes_to_string":
        if (args.size() == 1) {
          Range size = sizeOrUnknown(args.get(0));
          return new CallEstimate(
              size.byFactor(STRING_TRAVERSAL).add(argSum),
              new Range(Long.divideUnsigned(size.min(), 4), size.max()));
        }
        break;
      case "strings_quote":
        if (args.size() == 1) {
          Range size = sizeOrUnknown(args.get(0));
          return new CallEstimate(
              size.byFactor(STRING_TRAVERSAL).add(argSum),
              new Range(addSat(size.min(), 2), addSat(mulSat(size.max(), 2), 2)));
        }
        break;
      case "starts_with_string":
      case "ends_with_string":
        if (args.size() == 1) {
          return new CallEstimate(
              sizeOrUnknown(args.get(0)).byFactor(STRING_TRAVERSAL).add(argSum), null);
        }
        break;
      case "in_list":
        if (args.size() == 2) {
          return new CallEstimate(sizeOrUnknown(args.get(1)).byFactor(1).add(argSum), null);
        }
        break;
      case "matches_string":
        if (args.size() == 1) {
          Range text = sizeOrUnknown(target).add(ONE).byFactor(STRING_TRAVERSAL);
          Range regex = sizeOrUnknown(args.get(0)).byFactor(REGEX_LENGTH);
          return new CallEstimate(text.multiply(regex).add(argSum), null);
        }
        break;
      case "contains_string":
        if (args.size() == 1) {
          Range text = sizeOrUnknown(target).byFactor(STRING_TRAVERSAL);
          Range sub = sizeOrUnknown(args.get(0)).byFactor(STRING_TRAVERSAL);
          return new CallEstimate(text.multiply(sub).add(argSum), null);
        }
        break;
      case "logical_or":
      case "logical_and":
        {
          Range lhs = argCosts.get(0);
          Range rhs = argCosts.get(1);
          return new CallEstimate(new Range(lhs.min(), lhs.add(rhs).max()), null);
        }
      case "conditional":
        {
          Range size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
          EntrySize left = entrySize(args.get(1).expr());
          setEntrySize(e, left == null ? null : left.union(entrySize(args.get(2).expr())));
          Range cost = argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2)));
          return new CallEstimate(cost, size);
        }
      case "add_string":
      case "add_bytes":
      case "add_list":
        if (args.size() == 2) {
          Range result = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
          EntrySize left = entrySize(args.get(0).expr());
          EntrySize entries = left == null ? null : left.union(entrySize(args.get(1).expr()));
          if (entries != null) {
            setEntrySize(e, entries);
          }
          if (overload.equals("add_list")) {
            return new CallEstimate(ONE.add(argSum), result);
          }
          return new CallEstimate(result.byFactor(STRING_TRAVERSAL).add(argSum), result);
        }
        break;
      case "less_string":
      case "greater_string":
      case "less_equals_string":
      case "greater_equals_string":
      case "less_bytes":
      case "greater_bytes":
      case "less_equals_bytes":
      case "greater_equals_bytes":
      case "equals":
      case "not_equals":
        {
          Range lhs = sizeOrUnknown(args.get(0));
          Range rhs = sizeOrUnknown(args.get(1));
          long smallestMax = Long.compareUnsigned(rhs.max(), lhs.max()) < 0 ? rhs.max() : lhs.max();
          long min = smallestMax != 0 ? 1 : 0;
          return new CallEstimate(
              new Range(min, smallestMax).byFactor(STRING_TRAVERSAL).add(argSum), null);
        }
      default:
        break;
    }
    return new CallEstimate(ONE.add(argSum), null);
  }

  /**
   * Kubernetes' prices of its own functions and of the strings extension ({@code
   * library.CostEstimator.EstimateCallCost}).
   */
  private static final class KubernetesCosts {
    private KubernetesCosts() {}

    static CallEstimate callCost(
        String function, String overload, Node target, List<Node> args, CostEstimator c) {
      switch (function) {
        case "isSorted":
        case "sum":
        case "max":
        case "min":
        case "indexOf":
        case "lastIndexOf":
          if (target != null) {
            Node element = elementNode(target);
            if (element != null) {
              Range elementCost = ONE;
              CelKind kind = element.type().kind();
              if (kind == CelKind.STRING || kind == CelKind.BYTES) {
                elementCost = elementCost.add(c.estimate(element).byFactor(STRING_TRAVERSAL));
              }
              return new CallEstimate(c.estimate(target).multiply(elementCost), null);
            }
            return new CallEstimate(c.estimate(target).byFactor(STRING_TRAVERSAL), null);
          }
          break;
        case "url":
          if (args.size() == 1) {
            Range size = c.estimate(args.get(0));
            return new CallEstimate(size.byFactor(STRING_TRAVERSAL), size);
          }
          break;
        case "lowerAscii":
        case "upperAscii":
        case "substring":
        case "trim":
          if (target != null) {
            Range size = c.estimate(target);
            return new CallEstimate(size.byFactor(STRING_TRAVERSAL), size);
          }
          break;
        case "replace":
          if (target != null && args.size() >= 2) {
            return replace(c.estimate(target), c.estimate(args.get(0)), c.estimate(args.get(1)));
          }
          break;
        case "split":
          if (target != null) {
            Range size = c.estimate(target);
            long max = size.max();
            if (args.size() > 1) {
              CelExpr limit = args.get(1).expr();
              if (limit.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                  && limit.constant().getKind() == CelConstant.Kind.INT64_VALUE) {
                max = limit.constant().int64Value();
              }
            }
            return new CallEstimate(size.byFactor(2 * STRING_TRAVERSAL), new Range(0, max));
          }
          break;
        case "join":
          if (target != null) {
            Range size = ZERO;
            Range listSize = c.estimate(target);
            Node element = elementNode(target);
            if (element != null) {
              size = listSize.multiply(c.estimate(element));
            }
            if (!args.isEmpty()) {
              Range separator = c.estimate(args.get(0));
              long minSeparators = listSize.min() != 0 ? listSize.min() - 1 : 0;
              long maxSeparators = listSize.max() != 0 ? listSize.max() - 1 : 0;
              size = size.add(separator.multiply(new Range(minSeparators, maxSeparators)));
            }
            return new CallEstimate(size.byFactor(STRING_TRAVERSAL), size);
          }
          break;
        case "find":
        case "findAll":
          if (target != null && !args.isEmpty()) {
            Range size = c.estimate(target);
            Range text = size.add(ONE).byFactor(STRING_TRAVERSAL);
            Range regex = c.estimate(args.get(0)).byFactor(REGEX_LENGTH);
            return new CallEstimate(text.multiply(regex), new Range(0, size.max()));
          }
          break;
        case "cidr":
        case "isIP":
        case "isCIDR":
        case "quantity":
        case "isQuantity":
        case "semver":
        case "isSemver":
          if (!args.isEmpty()) {
            return new CallEstimate(c.estimate(args.get(0)).byFactor(STRING_TRAVERSAL), null);
          }
          break;
        case "ip":
          if (!args.isEmpty()) {
            return new CallEstimate(c.estimate(args.get(0)).byFactor(STRING_TRAVERSAL), null);
          }
          return new CallEstimate(ONE, null);
        case "ip.isCanonical":
          if (!args.isEmpty()) {
            return new CallEstimate(c.estimate(args.get(0)).byFactor(2 * STRING_TRAVERSAL), null);
          }
          break;
        case "masked":
        case "prefixLength":
        case "family":
        case "isUnspecified":
        case "isLoopback":
        case "isLinkLocalMulticast":
        case "isLinkLocalUnicast":
        case "isGlobalUnicast":
        case "format.named":
        case "sign":
        case "asInteger":
        case "isInteger":
        case "asApproximateFloat":
        case "isGreaterThan":
        case "isLessThan":
        case "compareTo":
        case "add":
        case "sub":
        case "major":
        case "minor":
        case "patch":
        case "getScheme":
        case "getHostname":
        case "getHost":
        case "getPort":
        case "getEscapedPath":
        case "getQuery":
          return new CallEstimate(ONE, null);
        case "containsIP":
        case "containsCIDR":
          if (target != null && !args.isEmpty()) {
            Range ipSize = new Range(4, 16);
            Range cost = ipSize.add(ipSize).byFactor(STRING_TRAVERSAL);
            if (function.equals("containsCIDR")) {
              cost = cost.add(ipSize.byFactor(STRING_TRAVERSAL)).add(ONE);
            }
            if (overload.equals("cidr_contains_ip_string")
                || overload.equals("cidr_contains_cidr_string")) {
              cost = cost.add(c.estimate(args.get(0)).byFactor(STRING_TRAVERSAL));
            }
            return new CallEstimate(cost, null);
          }
          break;
        case "validate":
          if (!args.isEmpty()) {
            return new CallEstimate(
                c.estimate(args.get(0)).byFactor(STRING_TRAVERSAL).byFactor(128 * REGEX_LENGTH),
                null);
          }
          break;
        case "_==_":
          if (args.size() == 2 && args.get(0).type().equals(args.get(1).type())) {
            String name = args.get(0).type().name();
            switch (name) {
              case "net.IP":
              case "net.CIDR":
              case "kubernetes.Quantity":
              case "kubernetes.Semver":
                return new CallEstimate(ONE, null);
              case "kubernetes.NamedFormat":
                return new CallEstimate(new Range(1, 64).byFactor(STRING_TRAVERSAL), null);
              case "kubernetes.URL":
                {
                  // Kubernetes takes both sizes from the right-hand side; so does this.
                  Range size = ONE;
                  Range rhs = args.get(1).size();
                  if (rhs != null) {
                    size = rhs.union(rhs);
                  }
                  return new CallEstimate(
                      new Range(1, size.max()).byFactor(STRING_TRAVERSAL), null);
                }
              default:
                break;
            }
          }
          break;
        default:
          break;
      }
      return null;
    }

    private static CallEstimate replace(Range size, Range toReplace, Range replaceWith) {
      long countMax;
      long countMin;
      long retainedMax = 0;
      long retainedMin = 0;
      if (toReplace.min() == 0) {
        countMax = size.max() != MAX ? size.max() + 1 : size.max();
        retainedMax = size.max();
      } else if (Long.compareUnsigned(replaceWith.max(), toReplace.min()) <= 0) {
        countMax = 0;
        retainedMax = size.max();
      } else {
        countMax =
            (long) Math.ceil(unsignedToDouble(size.max()) / unsignedToDouble(toReplace.min()));
      }
      if (toReplace.max() == 0) {
        countMin = size.min() != MAX ? size.min() + 1 : size.min();
        retainedMin = size.min();
      } else if (Long.compareUnsigned(toReplace.max(), replaceWith.min()) <= 0) {
        countMin = 0;
        retainedMin = size.min();
      } else {
        countMin =
            (long) Math.ceil(unsignedToDouble(size.min()) / unsignedToDouble(toReplace.max()));
      }
      Range result =
          new Range(countMin, countMax)
              .multiply(replaceWith)
              .add(new Range(retainedMin, retainedMax));
      return new CallEstimate(size.byFactor(2 * STRING_TRAVERSAL), result);
    }

    /** A list's items as a node of their own, at the list's path and {@code @items}. */
    private static Node elementNode(Node list) {
      List<CelType> parameters = list.type().parameters();
      if (parameters.isEmpty()) {
        return null;
      }
      List<String> path = list.path() == null ? null : append(list.path(), "@items");
      return new Node(path, parameters.get(0), null, null);
    }
  }

  /** Kubernetes' size of a node: its computed size, else its schema's, else unknown. */
  private Range estimate(Node node) {
    if (node.size() != null) {
      return node.size();
    }
    {
      Range schema = schemaSizes.apply(node.path(), node.type());
      if (schema != null) {
        return schema;
      }
    }
    return UNKNOWN;
  }
}
