package dev.machinery.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates a version's compiled rules on objects, as kube-apiserver's CEL validator walks them:
 * from the root down, each non-null value against its node's rules, transition rules only where the
 * old object has a value at the same place (object fields by name, map entries by key, items of
 * {@code x-kubernetes-list-type: map} lists by their keys), within a per-call cost limit and a cost
 * budget for the whole object. Immutable; thread-safe.
 */
final class RuleValidator implements ValidationRules.Validator {
  static final int MAX_MESSAGE_BYTES = 5 * 1024;
  private static final String OUT_OF_BUDGET =
      "validation failed due to running out of cost budget, no further validation rules will be run";
  private static final Pattern NO_SUCH_KEY = Pattern.compile("key '(.*)' is not present in map");
  private static final Pattern LOCATION = Pattern.compile("^evaluation error at [^:]*:\\d+: ");

  private final SchemaNode root;
  private final long perCallLimit;
  private final long budget;

  RuleValidator(SchemaNode root, long perCallLimit, long budget) {
    this.root = root;
    this.perCallLimit = perCallLimit;
    this.budget = budget;
  }

  @Override
  public List<FieldError> validate(Map<String, Object> object, Map<String, Object> old) {
    Objects.requireNonNull(object, "object");
    if (root == null) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    validate(root, null, object, old, new long[] {budget}, errors);
    return errors;
  }

  private void validate(
      SchemaNode node,
      FieldPath path,
      Object value,
      Object old,
      long[] remaining,
      List<FieldError> errors) {
    if (value == null) {
      return;
    }
    expressions(node, path, value, old, remaining, errors);
    if (remaining[0] < 0) {
      return;
    }
    if (value instanceof List<?> list && node.items() != null) {
      List<?> oldList = old instanceof List<?> o ? o : null;
      for (int i = 0; i < list.size(); i++) {
        Object oldItem = correlate(node, list.get(i), oldList);
        validate(node.items(), index(path, i), list.get(i), oldItem, remaining, errors);
        if (remaining[0] < 0) {
          return;
        }
      }
    } else if (value instanceof Map<?, ?> map) {
      Map<?, ?> oldMap =
          old instanceof Map<?, ?> o && RuleCompiler.correlatableMap(node.schema()) ? o : null;
      if (node.additional() != null) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          String key = String.valueOf(entry.getKey());
          Object oldValue = oldMap == null ? null : oldMap.get(key);
          validate(
              node.additional(), key(path, key), entry.getValue(), oldValue, remaining, errors);
          if (remaining[0] < 0) {
            return;
          }
        }
      }
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String name = String.valueOf(entry.getKey());
        SchemaNode child = node.properties().get(name);
        if (child == null || node.resource() && name.equals("metadata")) {
          continue;
        }
        Object oldValue = oldMap == null ? null : oldMap.get(name);
        validate(child, child(path, name), entry.getValue(), oldValue, remaining, errors);
        if (remaining[0] < 0) {
          return;
        }
      }
    }
  }

  /** The old item of a {@code map} list with the same keys as an item, or null. */
  private static Object correlate(SchemaNode node, Object item, List<?> oldList) {
    if (oldList == null
        || !"map".equals(node.schema().listType())
        || node.schema().listMapKeys() == null
        || !(item instanceof Map<?, ?> map)) {
      return null;
    }
    for (Object candidate : oldList) {
      if (candidate instanceof Map<?, ?> oldMap) {
        boolean same = true;
        for (String key : node.schema().listMapKeys()) {
          if (!Objects.equals(map.get(key), oldMap.get(key))) {
            same = false;
            break;
          }
        }
        if (same) {
          return candidate;
        }
      }
    }
    return null;
  }

  private void expressions(
      SchemaNode node,
      FieldPath path,
      Object value,
      Object old,
      long[] remaining,
      List<FieldError> errors) {
    if (node.rules().isEmpty()) {
      return;
    }
    FieldPath at = path == null ? FieldPath.of("<nil>") : path;
    String type = node.type();
    if (remaining[0] <= 0) {
      errors.add(FieldError.invalid(at, type, OUT_OF_BUDGET));
      remaining[0] = -1;
      return;
    }
    Object self = CelValues.toCel(value, node.schema(), node.resource());
    Object oldSelf = old == null ? null : CelValues.toCel(old, node.schema(), node.resource());
    Map<String, Object> vars = new HashMap<>();
    vars.put("self", self);
    if (oldSelf != null) {
      vars.put("oldSelf", oldSelf);
    }
    Map<String, Object> optionalVars = new HashMap<>();
    optionalVars.put("self", self);
    optionalVars.put("oldSelf", oldSelf == null ? Optional.empty() : Optional.of(oldSelf));
    for (CompiledRule rule : node.rules()) {
      if (rule.compileError() != null) {
        errors.add(FieldError.invalid(at, type, "rule compile error: " + rule.compileError()));
        continue;
      }
      if (rule.program() == null) {
        continue;
      }
      if (rule.usesOldSelf() && old == null && !rule.optionalOldSelf()) {
        continue;
      }
      Map<String, Object> activation = rule.optionalOldSelf() ? optionalVars : vars;
      long limit = Math.min(perCallLimit, remaining[0]);
      CostTracker cost = new CostTracker(limit);
      Object result;
      try {
        result = rule.program().trace(activation, cost);
      } catch (CelEvaluationException e) {
        if (e.getCause() instanceof CostTracker.LimitReached) {
          if (limit >= perCallLimit) {
            errors.add(
                FieldError.invalid(
                    at,
                    type,
                    "'operation cancelled: actual cost limit exceeded': no further validation"
                        + " rules will be run due to call cost exceeds limit for rule: "
                        + rule.errorString()));
          } else {
            errors.add(FieldError.invalid(at, type, OUT_OF_BUDGET));
          }
          remaining[0] = -1;
          return;
        }
        remaining[0] -= cost.cost();
        errors.add(FieldError.invalid(at, type, runtimeError(e, rule)));
        continue;
      } catch (RuntimeException e) {
        remaining[0] -= cost.cost();
        errors.add(
            FieldError.invalid(
                at, type, e.getMessage() + " evaluating rule: " + rule.errorString()));
        continue;
      }
      remaining[0] -= cost.cost();
      if (Boolean.TRUE.equals(result)) {
        continue;
      }
      FieldPath errorPath = rule.fieldPath() == null ? at : at.child(rule.fieldPath());
      String detail = null;
      if (rule.message() != null) {
        detail = message(rule, vars, remaining);
        if (remaining[0] < 0) {
          errors.add(
              FieldError.invalid(
                  errorPath,
                  type,
                  "messageExpression evaluation failed due to running out of cost budget, no"
                      + " further validation rules will be run"));
          return;
        }
      }
      if (detail == null) {
        detail = rule.messageOrDefault();
      }
      errors.add(error(errorPath, type, detail, rule.rule().reason()));
    }
  }

  /** The message expression's text, or null to use the rule's message. */
  private String message(CompiledRule rule, Map<String, Object> vars, long[] remaining) {
    long limit = Math.min(perCallLimit, remaining[0]);
    CostTracker cost = new CostTracker(limit);
    Object result;
    try {
      result = rule.message().trace(vars, cost);
    } catch (CelEvaluationException e) {
      if (e.getCause() instanceof CostTracker.LimitReached) {
        remaining[0] = -1;
        return null;
      }
      remaining[0] -= cost.cost();
      return null;
    }
    remaining[0] -= cost.cost();
    if (!(result instanceof String text)) {
      return null;
    }
    String trimmed = text.strip();
    if (trimmed.isEmpty()
        || trimmed.contains("\n")
        || trimmed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES) {
      return null;
    }
    return trimmed;
  }

  private static FieldError error(FieldPath path, String type, String detail, String reason) {
    if (reason == null) {
      return FieldError.invalid(path, type, detail);
    }
    return switch (reason) {
      case "FieldValueForbidden" -> FieldError.forbidden(path, detail);
      case "FieldValueRequired" -> FieldError.required(path, detail);
      case "FieldValueDuplicate" -> FieldError.duplicate(path, type);
      default -> FieldError.invalid(path, type, detail);
    };
  }

  /** A runtime error in kube-apiserver's words, CEL's error text in cel-go's where they differ. */
  private static String runtimeError(CelEvaluationException e, CompiledRule rule) {
    CelErrorCode code = e.getErrorCode();
    String text = LOCATION.matcher(String.valueOf(e.getMessage())).replaceFirst("");
    if (code == CelErrorCode.OVERLOAD_NOT_FOUND || text.startsWith("no such overload")) {
      return "'no such overload': call arguments did not match a supported operator, function or"
          + " macro signature for rule: "
          + rule.errorString();
    }
    Matcher key = NO_SUCH_KEY.matcher(text);
    if (code == CelErrorCode.ATTRIBUTE_NOT_FOUND && key.find()) {
      text = "no such key: " + key.group(1);
    } else if (code == CelErrorCode.DIVIDE_BY_ZERO) {
      text = "division by zero";
    } else if (code == CelErrorCode.NUMERIC_OVERFLOW) {
      text = "integer overflow";
    }
    return text + " evaluating rule: " + rule.errorString();
  }

  private static FieldPath child(FieldPath path, String name) {
    return path == null ? FieldPath.of(name) : path.child(name);
  }

  private static FieldPath key(FieldPath path, String key) {
    return path == null ? FieldPath.of(key) : path.key(key);
  }

  private static FieldPath index(FieldPath path, int i) {
    return path == null ? FieldPath.of("[" + i + "]") : path.index(i);
  }
}
