package dev.machinery.unversioned.managedfields;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.merge.Conflict;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.StatusCause;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code 409 Conflict} of an apply that would change fields other managers own, worded as
 * kube-apiserver words it: {@code Apply failed with 1 conflict: conflict with "kubectl-edit" using
 * apps/v1: .spec.replicas}, one {@code FieldManagerConflict} cause a field. Stateless.
 */
public final class ApplyConflicts {
  /** The cause type of a conflicting field. */
  public static final String CAUSE_TYPE = "FieldManagerConflict";

  private ApplyConflicts() {}

  /**
   * Builds the error.
   *
   * @param conflicts the conflicts, with managers named by their identifiers
   * @return the {@code 409}
   */
  public static StatusException toStatus(List<Conflict> conflicts) {
    List<StatusCause> causes = new ArrayList<>();
    for (Conflict c : conflicts) {
      StatusCause cause = new StatusCause();
      cause.setReason(CAUSE_TYPE);
      cause.setMessage("conflict with " + describe(c.manager()));
      cause.setField(c.path().toString());
      causes.add(cause);
    }
    return ApiErrors.newApplyConflict(causes, message(conflicts));
  }

  /**
   * Returns the message of the error.
   *
   * @param conflicts the conflicts
   * @return the message
   */
  public static String message(List<Conflict> conflicts) {
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      return "Apply failed with 1 conflict: conflict with "
          + describe(c.manager())
          + ": "
          + c.path();
    }
    Map<String, List<FieldPath>> byManager = new TreeMap<>();
    for (Conflict c : conflicts) {
      byManager.computeIfAbsent(c.manager(), m -> new ArrayList<>()).add(c.path());
    }
    List<String> lines = new ArrayList<>();
    for (var e : byManager.entrySet()) {
      lines.add("conflicts with " + describe(e.getKey()) + ":");
      e.getValue().forEach(p -> lines.add("- " + p));
    }
    return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
  }

  /**
   * Describes a manager as kube-apiserver prints it: its quoted name, the subresource, and for an
   * update the API version ({@code "kubectl-edit" using apps/v1}).
   *
   * @param identifier the manager's identifier
   * @return the description
   */
  public static String describe(String identifier) {
    ObjectNode parts = ManagedFields.parts(identifier);
    if (!parts.has("manager") && !parts.has("operation")) {
      return quote(identifier);
    }
    StringBuilder out = new StringBuilder(quote(parts.path("manager").asText("")));
    String subresource = parts.path("subresource").asText("");
    if (!subresource.isEmpty()) {
      out.append(" with subresource ").append(quote(subresource));
    }
    if (ManagedFields.UPDATE.equals(parts.path("operation").asText(""))) {
      out.append(" using ").append(parts.path("apiVersion").asText(""));
    }
    return out.toString();
  }

  private static String quote(String text) {
    Map<Character, String> escapes = new LinkedHashMap<>();
    escapes.put('\\', "\\\\");
    escapes.put('"', "\\\"");
    escapes.put('\n', "\\n");
    escapes.put('\t', "\\t");
    StringBuilder b = new StringBuilder("\"");
    for (char ch : text.toCharArray()) {
      b.append(escapes.getOrDefault(ch, String.valueOf(ch)));
    }
    return b.append('"').toString();
  }
}
