package dev.machinery.apiserver.endpoints;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a list's or a watch's {@code resourceVersionMatch} and {@code sendInitialEvents}, as
 * k8s.io/apimachinery's {@code ValidateListOptions} states them with the {@code WatchList} feature
 * on: a list takes {@code Exact} or {@code NotOlderThan} with a resourceVersion and no continue
 * token, and never {@code sendInitialEvents}; a watch takes {@code NotOlderThan} only, and only
 * together with {@code sendInitialEvents}, which in turn needs it. A request that breaks them is a
 * {@code 422 ListOptions.meta.k8s.io "" is invalid}. Stateless.
 */
final class ListOptionsValidation {
  static final String NOT_OLDER_THAN = "NotOlderThan";
  static final String EXACT = "Exact";
  private static final FieldPath MATCH = FieldPath.of("resourceVersionMatch");
  private static final FieldPath SEND_INITIAL_EVENTS = FieldPath.of("sendInitialEvents");

  private ListOptionsValidation() {}

  /**
   * The errors of the options of a list ({@code watch == false}) or a watch.
   *
   * @param options the decoded options
   * @param watch whether the request is a watch
   * @return the errors, empty when the options are valid
   */
  static List<FieldError> validate(ListOptions options, boolean watch) {
    return watch ? validateWatch(options) : validateList(options);
  }

  /** Throws kube-apiserver's {@code 422} when the options break a rule. */
  static void check(ListOptions options, boolean watch) {
    List<FieldError> errors = validate(options, watch);
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(GroupKind.of("meta.k8s.io", "ListOptions"), "", errors);
    }
  }

  private static List<FieldError> validateList(ListOptions options) {
    List<FieldError> errors = new ArrayList<>();
    String match = options.getResourceVersionMatch();
    String rv = options.getResourceVersion();
    if (match != null && !match.isEmpty()) {
      if (rv == null || rv.isEmpty()) {
        errors.add(
            FieldError.forbidden(
                MATCH, "resourceVersionMatch is forbidden unless resourceVersion is provided"));
      }
      if (hasContinue(options)) {
        errors.add(
            FieldError.forbidden(
                MATCH, "resourceVersionMatch is forbidden when continue is provided"));
      }
      if (!match.equals(EXACT) && !match.equals(NOT_OLDER_THAN)) {
        errors.add(FieldError.notSupported(MATCH, match, List.of(EXACT, NOT_OLDER_THAN, "")));
      }
      if (match.equals(EXACT) && "0".equals(rv)) {
        errors.add(
            FieldError.forbidden(
                MATCH, "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
      }
    }
    if (options.getSendInitialEvents() != null) {
      errors.add(
          FieldError.forbidden(SEND_INITIAL_EVENTS, "sendInitialEvents is forbidden for list"));
    }
    return errors;
  }

  private static List<FieldError> validateWatch(ListOptions options) {
    List<FieldError> errors = new ArrayList<>();
    String match = options.getResourceVersionMatch();
    boolean matchGiven = match != null && !match.isEmpty();
    if (options.getSendInitialEvents() != null && !NOT_OLDER_THAN.equals(match)) {
      errors.add(
          FieldError.forbidden(
              MATCH, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    }
    if (matchGiven) {
      if (options.getSendInitialEvents() == null) {
        errors.add(
            FieldError.forbidden(
                MATCH,
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is"
                    + " provided"));
      }
      if (!match.equals(NOT_OLDER_THAN)) {
        errors.add(FieldError.notSupported(MATCH, match, List.of(NOT_OLDER_THAN)));
      }
      if (hasContinue(options)) {
        errors.add(
            FieldError.forbidden(
                MATCH, "resourceVersionMatch is forbidden when continue is provided"));
      }
    }
    return errors;
  }

  private static boolean hasContinue(ListOptions options) {
    return options.getContinue() != null && !options.getContinue().isEmpty();
  }
}
