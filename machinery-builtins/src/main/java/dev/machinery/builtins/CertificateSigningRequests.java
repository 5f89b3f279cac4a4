package dev.machinery.builtins;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.Validation;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube-apiserver's CertificateSigningRequest registry, written out for JSON trees: the strategies
 * of the {@code status} and {@code approval} subresources (k8s.io/kubernetes {@code
 * pkg/registry/certificates/certificates/strategy.go}) and the validation of {@code
 * pkg/apis/certificates/validation}, with its messages. The main resource's strategy (spec and
 * status kept on update) is the server's status rule and {@link Strategies}.
 *
 * <p>Stateless; safe to call from any thread on objects no other thread changes.
 */
final class CertificateSigningRequests {
  /** The signer kube-apiserver's client certificates are signed by. */
  static final String KUBE_APISERVER_CLIENT = "kubernetes.io/kube-apiserver-client";

  /** The signer name v1 refuses on new requests. */
  static final String LEGACY_UNKNOWN = "kubernetes.io/legacy-unknown";

  static final String APPROVED = "Approved";
  static final String DENIED = "Denied";
  static final String FAILED = "Failed";

  /** Condition types whose status may only be {@code True}. */
  private static final Set<String> TRUE_ONLY = Set.of(APPROVED, DENIED, FAILED);

  /** The key usages Go's certificates API knows, sorted as Go lists them in errors. */
  static final List<String> USAGES =
      List.copyOf(
          new TreeSet<>(
              List.of(
                  "signing",
                  "digital signature",
                  "content commitment",
                  "key encipherment",
                  "key agreement",
                  "data encipherment",
                  "cert sign",
                  "crl sign",
                  "encipher only",
                  "decipher only",
                  "any",
                  "server auth",
                  "client auth",
                  "code signing",
                  "email protection",
                  "s/mime",
                  "ipsec end system",
                  "ipsec tunnel",
                  "ipsec user",
                  "timestamping",
                  "ocsp signing",
                  "microsoft sgc",
                  "netscape sgc")));

  private static final FieldPath CONDITIONS = FieldPath.of("status", "conditions");
  private static final FieldPath CERTIFICATE = FieldPath.of("status", "certificate");

  private CertificateSigningRequests() {}

  /**
   * The create strategy beyond the server's status reset: what the client wrote into {@code
   * spec.username}, {@code uid}, {@code groups} and {@code extra} is replaced by the requesting
   * user's (each left out when empty, as Go's JSON does).
   *
   * @param csr the new object (changed in place)
   * @param user who creates it
   */
  static void prepareForCreate(Map<String, Object> csr, UserInfo user) {
    Map<String, Object> spec = JsonTrees.child(csr, "spec");
    spec.remove("username");
    spec.remove("uid");
    spec.remove("groups");
    spec.remove("extra");
    if (!user.name().isEmpty()) {
      spec.put("username", user.name());
    }
    if (!user.uid().isEmpty()) {
      spec.put("uid", user.uid());
    }
    if (!user.groups().isEmpty()) {
      spec.put("groups", new ArrayList<Object>(user.groups()));
    }
    if (!user.extra().isEmpty()) {
      Map<String, Object> extra = new LinkedHashMap<>();
      user.extra().forEach((key, values) -> extra.put(key, new ArrayList<Object>(values)));
      spec.put("extra", extra);
    }
  }

  /**
   * The {@code status} subresource's strategy, after the server put the new status on the stored
   * object: the Approved and Denied conditions stay as stored when the new status has as many of
   * each (adding or removing them is left to validation to refuse), and conditions get their
   * timestamps.
   *
   * @param csr the new object (changed in place)
   * @param old the stored object (not changed)
   */
  static void prepareStatusUpdate(Map<String, Object> csr, Map<String, Object> old) {
    Object spec = JsonTrees.get(old, "spec");
    if (spec != null) {
      csr.put("spec", JsonTrees.deepCopy(spec));
    }
    preserveInstances(csr, old, APPROVED);
    preserveInstances(csr, old, DENIED);
    populateTimestamps(csr, old, now());
  }

  /**
   * The {@code approval} subresource's strategy: of the new object only its metadata and its
   * conditions are kept (with their timestamps filled), the spec and the rest of the status are the
   * stored ones.
   *
   * @param csr the new object (changed in place)
   * @param old the stored object (not changed)
   */
  static void prepareApprovalUpdate(Map<String, Object> csr, Map<String, Object> old) {
    populateTimestamps(csr, old, now());
    Object conditions = JsonTrees.get(csr, "status", "conditions");
    Map<String, Object> status = new LinkedHashMap<>();
    Map<String, Object> oldStatus = JsonTrees.map(old, "status");
    if (oldStatus != null) {
      for (Map.Entry<String, Object> e : oldStatus.entrySet()) {
        status.put(e.getKey(), JsonTrees.deepCopy(e.getValue()));
      }
    }
    if (conditions == null) {
      status.remove("conditions");
    } else {
      status.put("conditions", conditions);
    }
    csr.put("status", status);
    Object spec = JsonTrees.get(old, "spec");
    if (spec == null) {
      csr.remove("spec");
    } else {
      csr.put("spec", JsonTrees.deepCopy(spec));
    }
  }

  /** Keeps the stored instances of a condition type when the new status has as many of them. */
  private static void preserveInstances(
      Map<String, Object> csr, Map<String, Object> old, String type) {
    List<Map<String, Object>> conditions = JsonTrees.maps(csr, "status", "conditions");
    List<Integer> newIndices = indices(conditions, type);
    List<Map<String, Object>> oldConditions = JsonTrees.maps(old, "status", "conditions");
    List<Integer> oldIndices = indices(oldConditions, type);
    if (newIndices.size() != oldIndices.size() || newIndices.isEmpty()) {
      return;
    }
    List<Object> replaced = new ArrayList<>(conditions);
    for (int i = 0; i < newIndices.size(); i++) {
      replaced.set(newIndices.get(i), JsonTrees.deepCopy(oldConditions.get(oldIndices.get(i))));
    }
    JsonTrees.child(csr, "status").put("conditions", replaced);
  }

  private static List<Integer> indices(List<Map<String, Object>> conditions, String type) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < conditions.size(); i++) {
      if (type.equals(conditions.get(i).get("type"))) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * Fills each condition's {@code lastUpdateTime} with now when it has none, and its {@code
   * lastTransitionTime} with the stored condition's of the same type and status, or now.
   *
   * @param csr the new object (changed in place)
   * @param old the stored object
   * @param now the time, as Go writes a metav1.Time
   */
  static void populateTimestamps(Map<String, Object> csr, Map<String, Object> old, String now) {
    List<Map<String, Object>> oldConditions = JsonTrees.maps(old, "status", "conditions");
    for (Map<String, Object> condition : JsonTrees.maps(csr, "status", "conditions")) {
      if (isZero(condition.get("lastUpdateTime"))) {
        condition.put("lastUpdateTime", now);
      }
      if (isZero(condition.get("lastTransitionTime"))) {
        String transition = now;
        for (Map<String, Object> was : oldConditions) {
          if (Objects.equals(was.get("type"), condition.get("type"))
              && Objects.equals(was.get("status"), condition.get("status"))
              && !isZero(was.get("lastTransitionTime"))) {
            transition = String.valueOf(was.get("lastTransitionTime"));
            break;
          }
        }
        condition.put("lastTransitionTime", transition);
      }
    }
  }

  private static boolean isZero(Object time) {
    return time == null || time.toString().isEmpty();
  }

  private static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * Validates a request as kube-apiserver's strategies do: a new one ({@code old} null), an update
   * through the main resource, {@code status} (which may set the certificate) or {@code approval}
   * (which may add or change the Approved and Denied conditions).
   *
   * @param csr the object to store
   * @param old the stored object, or {@code null} on create
   * @param subresource {@code status}, {@code approval}, or {@code ""} for the main resource
   * @return the errors, in kube's order
   */
  static List<FieldError> validate(
      Map<String, Object> csr, Map<String, Object> old, String subresource) {
    Options opts = Options.of(csr, old);
    if (subresource.equals("status")) {
      opts.allowSettingCertificate = true;
    } else if (subresource.equals("approval")) {
      opts.allowSettingApprovalConditions = true;
    }
    List<FieldError> errors = validateRequest(csr, opts);
    if (old == null) {
      return errors;
    }
    for (String type : List.of(APPROVED, DENIED, FAILED)) {
      if (find(csr, type).size() < find(old, type).size()) {
        errors.add(
            FieldError.forbidden(
                CONDITIONS, "updates may not remove a condition of type " + quote(type)));
      }
    }
    if (!opts.allowSettingApprovalConditions) {
      for (String type : List.of(APPROVED, DENIED)) {
        List<Map<String, Object>> was = find(old, type);
        List<Map<String, Object>> now = find(csr, type);
        if (now.size() > was.size()) {
          errors.add(
              FieldError.forbidden(
                  CONDITIONS, "updates may not add a condition of type " + quote(type)));
        } else if (now.size() == was.size() && !now.equals(was)) {
          errors.add(
              FieldError.forbidden(
                  CONDITIONS,
                  "updates may not modify a condition of type "
                      + quote(type)
                      + "\n"
                      + was
                      + " -> "
                      + now));
        }
      }
    }
    String certificate = JsonTrees.string(csr, "", "status", "certificate");
    String oldCertificate = JsonTrees.string(old, "", "status", "certificate");
    if (!certificate.equals(oldCertificate)) {
      if (!opts.allowSettingCertificate) {
        errors.add(FieldError.forbidden(CERTIFICATE, "updates may not set certificate content"));
      } else if (!oldCertificate.isEmpty()) {
        errors.add(
            FieldError.forbidden(
                CERTIFICATE, "updates may not modify existing certificate content"));
      }
    }
    return errors;
  }

  private static List<FieldError> validateRequest(Map<String, Object> csr, Options opts) {
    List<FieldError> errors = new ArrayList<>();
    FieldPath spec = FieldPath.of("spec");
    Object request = JsonTrees.get(csr, "spec", "request");
    if (request != null) {
      String problem = requestProblem(String.valueOf(request));
      if (problem != null) {
        errors.add(FieldError.invalid(spec.child("request"), request, problem));
      }
    }
    List<Object> usages =
        JsonTrees.get(csr, "spec", "usages") instanceof List<?> list
            ? new ArrayList<>(list)
            : List.of();
    if (usages.isEmpty()) {
      errors.add(FieldError.required(spec.child("usages"), ""));
    }
    if (!opts.allowUnknownUsages) {
      for (int i = 0; i < usages.size(); i++) {
        if (!USAGES.contains(String.valueOf(usages.get(i)))) {
          errors.add(FieldError.notSupported(spec.child("usages").index(i), usages.get(i), USAGES));
        }
      }
    }
    if (!opts.allowDuplicateUsages) {
      Set<Object> seen = new HashSet<>();
      for (int i = 0; i < usages.size(); i++) {
        if (!seen.add(usages.get(i))) {
          errors.add(FieldError.duplicate(spec.child("usages").index(i), usages.get(i)));
        }
      }
    }
    Object signerName = JsonTrees.get(csr, "spec", "signerName");
    if (signerName != null) {
      if (!opts.allowLegacySignerName && LEGACY_UNKNOWN.equals(signerName)) {
        errors.add(
            FieldError.invalid(
                spec.child("signerName"),
                signerName,
                "the legacy signerName is not allowed via this API version"));
      } else {
        errors.addAll(validateSignerName(spec.child("signerName"), String.valueOf(signerName)));
      }
    }
    if (JsonTrees.get(csr, "spec", "expirationSeconds") instanceof Number seconds
        && seconds.longValue() < 600) {
      errors.add(
          FieldError.invalid(
              spec.child("expirationSeconds"),
              seconds.longValue(),
              "may not specify a duration less than 600 seconds (10 minutes)"));
    }
    errors.addAll(validateConditions(csr, opts));
    if (!opts.allowArbitraryCertificate) {
      String problem = certificateProblem(JsonTrees.string(csr, "", "status", "certificate"));
      if (problem != null) {
        errors.add(FieldError.invalid(CERTIFICATE, "<certificate data>", problem));
      }
    }
    return errors;
  }

  /** What is wrong with the request's PEM (base64 in JSON), or {@code null}. */
  static String requestProblem(String base64) {
    byte[] pem;
    try {
      pem = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      return "PEM block type must be CERTIFICATE REQUEST";
    }
    try {
      CertificateRequest.parse(pem).checkSignature();
      return null;
    } catch (CertificateRequest.InvalidRequestException e) {
      return e.getMessage();
    }
  }

  /**
   * What is wrong with {@code status.certificate} (base64 in JSON), or {@code null}: PEM blocks of
   * type {@code CERTIFICATE} only, without headers, each holding a certificate, at least one.
   */
  static String certificateProblem(String base64) {
    if (base64.isEmpty()) {
      return null;
    }
    String text;
    try {
      text = new String(Base64.getDecoder().decode(base64), StandardCharsets.ISO_8859_1);
    } catch (IllegalArgumentException e) {
      return "must contain at least one CERTIFICATE PEM block";
    }
    int blocks = 0;
    int at = 0;
    while (true) {
      int begin = text.indexOf("-----BEGIN ", at);
      if (begin < 0) {
        break;
      }
      int typeEnd = text.indexOf("-----", begin + 11);
      if (typeEnd < 0) {
        break;
      }
      String type = text.substring(begin + 11, typeEnd);
      String end = "-----END " + type + "-----";
      int endAt = text.indexOf(end, typeEnd + 5);
      if (endAt < 0) {
        break;
      }
      if (!type.equals("CERTIFICATE")) {
        return "only CERTIFICATE PEM blocks are allowed, found " + quote(type);
      }
      String body = text.substring(typeEnd + 5, endAt);
      if (body.contains(":")) {
        return "no PEM block headers are permitted";
      }
      blocks++;
      try {
        byte[] der = Base64.getMimeDecoder().decode(body.replaceAll("\\s", ""));
        if (CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(der))
            .isEmpty()) {
          return "found CERTIFICATE PEM block containing 0 certificates";
        }
      } catch (IllegalArgumentException | CertificateException e) {
        return "x509: malformed certificate";
      }
      at = endAt + end.length();
    }
    return blocks == 0 ? "must contain at least one CERTIFICATE PEM block" : null;
  }

  private static List<FieldError> validateConditions(Map<String, Object> csr, Options opts) {
    List<FieldError> errors = new ArrayList<>();
    Set<Object> seen = new HashSet<>();
    boolean approved = false;
    boolean denied = false;
    List<Map<String, Object>> conditions = JsonTrees.maps(csr, "status", "conditions");
    for (int i = 0; i < conditions.size(); i++) {
      Map<String, Object> c = conditions.get(i);
      FieldPath at = CONDITIONS.index(i);
      String type = c.get("type") == null ? "" : String.valueOf(c.get("type"));
      if (!opts.allowEmptyConditionType && type.isEmpty()) {
        errors.add(FieldError.required(at.child("type"), ""));
      }
      String status = c.get("status") == null ? "" : String.valueOf(c.get("status"));
      List<String> allowed =
          TRUE_ONLY.contains(type) ? List.of("True") : List.of("False", "True", "Unknown");
      if (status.isEmpty()) {
        errors.add(FieldError.required(at.child("status"), ""));
      } else if (!allowed.contains(status)) {
        errors.add(FieldError.notSupported(at.child("status"), status, allowed));
      }
      if (!opts.allowBothApprovedAndDenied) {
        if (type.equals(APPROVED)) {
          approved = true;
          if (denied) {
            errors.add(
                FieldError.invalid(
                    at.child("type"),
                    type,
                    "Approved and Denied conditions are mutually exclusive"));
          }
        } else if (type.equals(DENIED)) {
          denied = true;
          if (approved) {
            errors.add(
                FieldError.invalid(
                    at.child("type"),
                    type,
                    "Approved and Denied conditions are mutually exclusive"));
          }
        }
      }
      if (!opts.allowDuplicateConditionTypes && !seen.add(type)) {
        errors.add(FieldError.duplicate(at.child("type"), type));
      }
    }
    return errors;
  }

  /**
   * A signer name's problems, as Go's {@code ValidateSignerName}: {@code <domain>/<path>}, the
   * domain of at least two DNS labels, the path of DNS subdomains joined by dots, 571 characters at
   * most.
   *
   * @param at the field
   * @param signerName the name
   * @return the errors
   */
  static List<FieldError> validateSignerName(FieldPath at, String signerName) {
    List<FieldError> errors = new ArrayList<>();
    if (signerName.isEmpty()) {
      errors.add(FieldError.required(at, ""));
      return errors;
    }
    String[] segments = signerName.split("/", -1);
    if (segments.length != 2) {
      errors.add(
          FieldError.invalid(
              at,
              signerName,
              "must be a fully qualified domain and path of the form 'example.com/signer-name'"));
      return errors;
    }
    if (segments[0].length() > 253) {
      errors.add(FieldError.tooLong(at, 253));
    }
    String[] domainLabels = segments[0].split("\\.", -1);
    for (String label : domainLabels) {
      List<String> problems = Validation.isDNS1123Label(label);
      if (!problems.isEmpty()) {
        for (String problem : problems) {
          errors.add(
              FieldError.invalid(
                  at, segments[0], "validating label " + quote(label) + ": " + problem));
        }
        break;
      }
    }
    if (domainLabels.length < 2) {
      errors.add(
          FieldError.invalid(
              at, segments[0], "should be a domain with at least two segments separated by dots"));
    }
    for (String label : segments[1].split("\\.", -1)) {
      List<String> problems = Validation.isDNS1123Subdomain(label);
      if (!problems.isEmpty()) {
        for (String problem : problems) {
          errors.add(
              FieldError.invalid(
                  at, segments[1], "validating label " + quote(label) + ": " + problem));
        }
        break;
      }
    }
    int max = 253 + (253 + 63 + 1) + 1;
    if (signerName.length() > max) {
      errors.add(FieldError.tooLong(at, max));
    }
    return errors;
  }

  private static List<Map<String, Object>> find(Map<String, Object> csr, String type) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> c : JsonTrees.maps(csr, "status", "conditions")) {
      if (type.equals(c.get("type"))) {
        out.add(c);
      }
    }
    return out;
  }

  private static String quote(String text) {
    return PodSecurityChecks.goQuote(text);
  }

  /** Go's {@code certificateValidationOptions}: what an update tolerates. */
  private static final class Options {
    boolean allowSettingApprovalConditions;
    boolean allowSettingCertificate;
    boolean allowBothApprovedAndDenied;
    boolean allowLegacySignerName;
    boolean allowDuplicateConditionTypes;
    boolean allowEmptyConditionType;
    boolean allowArbitraryCertificate;
    boolean allowUnknownUsages;
    boolean allowDuplicateUsages;

    /** The tolerances for compatibility with what is stored already. */
    static Options of(Map<String, Object> csr, Map<String, Object> old) {
      Options o = new Options();
      if (old == null) {
        return o;
      }
      o.allowBothApprovedAndDenied = !find(old, APPROVED).isEmpty() && !find(old, DENIED).isEmpty();
      o.allowLegacySignerName = LEGACY_UNKNOWN.equals(JsonTrees.get(old, "spec", "signerName"));
      Set<Object> types = new HashSet<>();
      for (Map<String, Object> c : JsonTrees.maps(old, "status", "conditions")) {
        Object type = c.get("type") == null ? "" : c.get("type");
        if (!types.add(type)) {
          o.allowDuplicateConditionTypes = true;
        }
        if ("".equals(type)) {
          o.allowEmptyConditionType = true;
        }
      }
      String certificate = JsonTrees.string(csr, "", "status", "certificate");
      String oldCertificate = JsonTrees.string(old, "", "status", "certificate");
      o.allowArbitraryCertificate =
          certificate.equals(oldCertificate) || certificateProblem(oldCertificate) != null;
      List<Object> usages =
          JsonTrees.get(old, "spec", "usages") instanceof List<?> list
              ? new ArrayList<>(list)
              : List.of();
      Set<Object> seen = new HashSet<>();
      for (Object usage : usages) {
        if (!USAGES.contains(String.valueOf(usage))) {
          o.allowUnknownUsages = true;
        }
        if (!seen.add(usage)) {
          o.allowDuplicateUsages = true;
        }
      }
      return o;
    }
  }
}
