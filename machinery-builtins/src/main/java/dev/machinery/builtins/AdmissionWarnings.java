package dev.machinery.builtins;

import java.lang.System.Logger.Level;

/**
 * The {@link AdmissionResults} of a server whose responses carry no admission warnings: each
 * warning and audit annotation is logged ({@code System.Logger} {@code
 * dev.machinery.builtins.admission}, level {@code INFO} for warnings, {@code DEBUG} for
 * annotations). Thread-safe.
 */
final class AdmissionWarnings {
  private AdmissionWarnings() {}

  private static final System.Logger LOG = System.getLogger("dev.machinery.builtins.admission");

  /** Logs what the plugins decided. */
  static final AdmissionResults LOGGED =
      (attributes, warnings, audit) -> {
        String what =
            attributes.resource()
                + " "
                + (attributes.namespace().isEmpty() ? "" : attributes.namespace() + "/")
                + attributes.name();
        for (String warning : warnings) {
          LOG.log(Level.INFO, "admission warning for {0}: {1}", what, warning);
        }
        audit.forEach(
            (key, value) ->
                LOG.log(Level.DEBUG, "audit annotation of {0}: {1}={2}", what, key, value));
      };
}
