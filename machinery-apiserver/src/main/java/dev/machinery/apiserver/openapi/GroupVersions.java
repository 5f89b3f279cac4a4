package dev.machinery.apiserver.openapi;

/** Names built from groups and versions, as Kubernetes builds operation ids. Stateless. */
final class GroupVersions {
  private GroupVersions() {}

  /** {@code apps} → {@code Apps}, {@code rbac.authorization.k8s.io} → {@code RbacAuthorization}. */
  static String camel(String text) {
    if (text.isEmpty()) {
      return "Core";
    }
    String trimmed = text.endsWith(".k8s.io") ? text.substring(0, text.length() - 7) : text;
    StringBuilder out = new StringBuilder();
    for (String part : trimmed.split("[.\\-]")) {
      if (!part.isEmpty()) {
        out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
    }
    return out.toString();
  }
}
