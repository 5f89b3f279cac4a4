package dev.machinery.apiserver.apiextensions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceConversion;
import dev.machinery.apiserver.certs.CaBundles;
import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.ObjectMetaValidation;
import dev.machinery.unversioned.validation.Validation;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * A CustomResourceDefinition's {@code Webhook} conversion, as kube-apiserver calls it: each object
 * that is not already in the version wanted is sent in a {@code ConversionReview} (in the first of
 * the definition's {@code conversionReviewVersions} that is {@code v1} or {@code v1beta1}) to the
 * webhook's URL over HTTPS, trusting its {@code caBundle} (or the JDK's trusted authorities without
 * one), within 30 seconds; the answer is checked as kube-apiserver checks it (the review's kind and
 * uid, {@code Success}, one object back, in the version asked for, of the same kind, name,
 * namespace and uid) and only its labels and annotations are taken from the webhook's metadata. A
 * failure is an {@link IllegalArgumentException} with kube-apiserver's words ({@code conversion
 * webhook for stable.example.com/v1, Kind=CronTab failed: ...}), which the server answers {@code
 * 500}.
 *
 * <p>A {@code service} reference is called at {@code https://<name>.<namespace>.svc:<port><path>},
 * the name kube-apiserver's resolver gives it inside a cluster; it is reached only where that name
 * resolves.
 *
 * <p>Thread-safe: the HTTP client is shared by every request.
 */
final class WebhookConversion implements UnstructuredConversion {
  /** kube-apiserver's time limit for a conversion webhook call. */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final List<String> REVIEW_VERSIONS = List.of("v1", "v1beta1");
  private static final String FORM = "; desired format: https://host[/path]";
  private static final ObjectMapper JSON = ObjectJson.mapperBuilder().build();

  private final URI url;
  private final String reviewVersion;
  private final HttpClient client;

  private WebhookConversion(URI url, String reviewVersion, HttpClient client) {
    this.url = url;
    this.reviewVersion = reviewVersion;
    this.client = client;
  }

  /** Whether a definition's conversion is {@code Webhook}. */
  static boolean isWebhook(CustomResourceConversion conversion) {
    return conversion != null && "Webhook".equals(conversion.strategy());
  }

  /**
   * The conversion a valid definition's webhook configuration describes.
   *
   * @throws IllegalArgumentException when the configuration is not valid ({@link #validate} says
   *     why)
   */
  static WebhookConversion of(CustomResourceConversion conversion) {
    List<FieldError> errors = validate(conversion, FieldPath.of("spec", "conversion"));
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(FieldError.aggregate(errors));
    }
    JsonNode clientConfig = conversion.webhook().path("clientConfig");
    String reviewVersion = null;
    for (JsonNode version : conversion.webhook().path("conversionReviewVersions")) {
      if (REVIEW_VERSIONS.contains(version.asText())) {
        reviewVersion = version.asText();
        break;
      }
    }
    HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(TIMEOUT);
    byte[] caBundle = caBundle(clientConfig);
    if (caBundle != null) {
      client.sslContext(CaBundles.trusting(caBundle));
    }
    return new WebhookConversion(target(clientConfig), reviewVersion, client.build());
  }

  /**
   * kube-apiserver's checks of a definition's conversion, with its field paths (those of its
   * internal type: {@code spec.conversion.webhookClientConfig}) and messages.
   */
  static List<FieldError> validate(CustomResourceConversion conversion, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (conversion == null) {
      return errors;
    }
    JsonNode webhook = conversion.webhook();
    JsonNode clientConfig = webhook == null ? null : webhook.get("clientConfig");
    JsonNode reviewVersions = webhook == null ? null : webhook.get("conversionReviewVersions");
    FieldPath configPath = path.child("webhookClientConfig");
    FieldPath versionsPath = path.child("conversionReviewVersions");
    if (!isWebhook(conversion)) {
      if (clientConfig != null && !clientConfig.isNull()) {
        errors.add(
            FieldError.forbidden(
                configPath, "should not be set when strategy is not set to Webhook"));
      }
      if (reviewVersions != null && reviewVersions.size() > 0) {
        errors.add(
            FieldError.forbidden(
                versionsPath, "should not be set when strategy is not set to Webhook"));
      }
      return errors;
    }
    if (clientConfig == null || clientConfig.isNull()) {
      errors.add(FieldError.required(configPath, "required when strategy is set to Webhook"));
    } else {
      JsonNode url = clientConfig.get("url");
      JsonNode service = clientConfig.get("service");
      boolean hasUrl = url != null && !url.isNull();
      boolean hasService = service != null && !service.isNull();
      if (hasUrl == hasService) {
        errors.add(FieldError.required(configPath, "exactly one of url or service is required"));
      } else if (hasUrl) {
        url(url.asText(), configPath.child("url"), errors);
      } else {
        service(service, configPath.child("service"), errors);
      }
      JsonNode caBundle = clientConfig.get("caBundle");
      if (caBundle != null && !caBundle.isNull() && !caBundle.asText().isEmpty()) {
        FieldPath caPath = configPath.child("caBundle");
        try {
          CaBundles.trusting(caBundle(clientConfig));
        } catch (IllegalArgumentException e) {
          errors.add(FieldError.invalid(caPath, caBundle.asText(), e.getMessage()));
        }
      }
    }
    reviewVersions(reviewVersions, versionsPath, errors);
    return errors;
  }

  private static void url(String text, FieldPath path, List<FieldError> errors) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      errors.add(FieldError.required(path, "url must be a valid URL: " + e.getMessage() + FORM));
      return;
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme();
    if (!scheme.equals("https")) {
      errors.add(FieldError.invalid(path, scheme, "'https' is the only allowed URL scheme" + FORM));
    }
    String host = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
    if (uri.getRawUserInfo() != null) {
      host = host.substring(uri.getRawUserInfo().length() + 1);
    }
    if (host.isEmpty()) {
      errors.add(FieldError.invalid(path, host, "host must be specified" + FORM));
    }
    if (uri.getRawUserInfo() != null) {
      errors.add(
          FieldError.invalid(
              path, uri.getRawUserInfo(), "user information is not permitted in the URL"));
    }
    if (uri.getRawFragment() != null && !uri.getRawFragment().isEmpty()) {
      errors.add(
          FieldError.invalid(path, uri.getRawFragment(), "fragments are not permitted in the URL"));
    }
    if (uri.getRawQuery() != null && !uri.getRawQuery().isEmpty()) {
      errors.add(
          FieldError.invalid(
              path, uri.getRawQuery(), "query parameters are not permitted in the URL"));
    }
  }

  private static void service(JsonNode service, FieldPath path, List<FieldError> errors) {
    if (service.path("name").asText("").isEmpty()) {
      errors.add(FieldError.required(path.child("name"), ""));
    }
    if (service.path("namespace").asText("").isEmpty()) {
      errors.add(FieldError.required(path.child("namespace"), ""));
    }
    int port = service.path("port").asInt(443);
    if (port < 1 || port > 65535) {
      errors.add(
          FieldError.invalid(
              path.child("port"),
              port,
              "port is not valid: must be between 1 and 65535, inclusive"));
    }
    JsonNode pathNode = service.get("path");
    if (pathNode == null || pathNode.isNull()) {
      return;
    }
    String urlPath = pathNode.asText();
    if (urlPath.isEmpty() || urlPath.equals("/")) {
      return;
    }
    if (urlPath.equals("//")) {
      errors.add(FieldError.invalid(path.child("path"), urlPath, "segment[0] may not be empty"));
      return;
    }
    if (!urlPath.startsWith("/")) {
      errors.add(FieldError.invalid(path.child("path"), urlPath, "must start with a '/'"));
    }
    String check = urlPath.substring(1);
    if (check.endsWith("/")) {
      check = check.substring(0, check.length() - 1);
    }
    String[] steps = check.split("/", -1);
    for (int i = 0; i < steps.length; i++) {
      if (steps[i].isEmpty()) {
        errors.add(
            FieldError.invalid(path.child("path"), urlPath, "segment[" + i + "] may not be empty"));
        continue;
      }
      for (String failure : Validation.isDNS1123Subdomain(steps[i])) {
        errors.add(
            FieldError.invalid(path.child("path"), urlPath, "segment[" + i + "]: " + failure));
      }
    }
  }

  private static void reviewVersions(JsonNode versions, FieldPath path, List<FieldError> errors) {
    if (versions == null || !versions.isArray() || versions.isEmpty()) {
      errors.add(FieldError.required(path, ""));
      return;
    }
    Set<String> seen = new LinkedHashSet<>();
    boolean accepted = false;
    List<String> all = new ArrayList<>();
    for (int i = 0; i < versions.size(); i++) {
      String version = versions.get(i).asText();
      all.add(version);
      if (!seen.add(version)) {
        errors.add(FieldError.invalid(path.index(i), version, "duplicate version"));
        continue;
      }
      for (String message : Validation.isDNS1035Label(version)) {
        errors.add(FieldError.invalid(path.index(i), version, message));
      }
      accepted |= REVIEW_VERSIONS.contains(version);
    }
    if (!accepted) {
      errors.add(FieldError.invalid(path, all, "must include at least one of v1, v1beta1"));
    }
  }

  private static byte[] caBundle(JsonNode clientConfig) {
    JsonNode caBundle = clientConfig.get("caBundle");
    if (caBundle == null || caBundle.isNull() || caBundle.asText().isEmpty()) {
      return null;
    }
    try {
      return Base64.getDecoder().decode(caBundle.asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("illegal base64 data: " + e.getMessage(), e);
    }
  }

  private static URI target(JsonNode clientConfig) {
    JsonNode url = clientConfig.get("url");
    if (url != null && !url.isNull()) {
      return URI.create(url.asText());
    }
    JsonNode service = clientConfig.get("service");
    String path = service.path("path").asText("");
    return URI.create(
        "https://"
            + service.path("name").asText()
            + "."
            + service.path("namespace").asText()
            + ".svc:"
            + service.path("port").asInt(443)
            + (path.isEmpty() ? "/" : path));
  }

  @Override
  public void convert(Map<String, Object> object, GroupVersion to) {
    String desired = to.toString();
    if (desired.equals(object.get("apiVersion"))) {
      return;
    }
    String gvk = object.get("apiVersion") + ", Kind=" + object.get("kind");
    String uid = UUID.randomUUID().toString();
    ObjectNode review = JSON.createObjectNode();
    review.put("kind", "ConversionReview");
    review.put("apiVersion", "apiextensions.k8s.io/" + reviewVersion);
    ObjectNode request = review.putObject("request");
    request.put("uid", uid);
    request.put("desiredAPIVersion", desired);
    request.putArray("objects").add(JSON.valueToTree(object));
    JsonNode answer;
    try {
      HttpResponse<byte[]> response =
          client.send(
              HttpRequest.newBuilder(url)
                  .timeout(TIMEOUT)
                  .header("Content-Type", "application/json")
                  .header("Accept", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(review)))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() / 100 != 2) {
        throw failed(
            gvk,
            "the server responded with the status code "
                + response.statusCode()
                + " but did not return more information");
      }
      answer = JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw failed(gvk, "the answer is not a ConversionReview: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw failed(gvk, "Post \"" + url + "\": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed(gvk, "Post \"" + url + "\": interrupted");
    }
    Map<String, Object> converted = convertedObject(gvk, uid, answer);
    String prefix = "conversion webhook for " + gvk + " returned invalid object";
    if (!desired.equals(converted.get("apiVersion"))) {
      throw new IllegalArgumentException(
          prefix
              + " at index 0: invalid groupVersion (expected "
              + desired
              + ", received "
              + converted.get("apiVersion")
              + ")");
    }
    if (!Objects.equals(object.get("kind"), converted.get("kind"))) {
      throw new IllegalArgumentException(
          prefix
              + " at index 0: invalid kind (expected "
              + object.get("kind")
              + ", received "
              + converted.get("kind")
              + ")");
    }
    Map<String, Object> original = map(object.get("metadata"));
    Map<String, Object> returned = map(converted.get("metadata"));
    for (String field : List.of("name", "namespace", "uid")) {
      Object expected = original == null ? null : original.get(field);
      Object got = returned == null ? null : returned.get(field);
      if (!Objects.equals(text(expected), text(got))) {
        throw new IllegalArgumentException(
            prefix
                + ": must have the same "
                + (field.equals("uid") ? "UID" : field)
                + ": "
                + text(expected)
                + " != "
                + text(got));
      }
    }
    converted.put("metadata", restoredMetadata(gvk, original, returned));
    object.clear();
    object.putAll(converted);
  }

  /** The one object of a webhook's answer, after kube-apiserver's checks of the review. */
  private Map<String, Object> convertedObject(String gvk, String uid, JsonNode answer) {
    if (reviewVersion.equals("v1")) {
      String got =
          answer.path("apiVersion").asText("") + ", Kind=" + answer.path("kind").asText("");
      if (!got.equals("apiextensions.k8s.io/v1, Kind=ConversionReview")) {
        throw failed(
            gvk,
            "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got "
                + (got.equals(", Kind=") ? "/, Kind=" : got));
      }
    }
    JsonNode response = answer.get("response");
    if (response == null || !response.isObject()) {
      throw failed(gvk, "no response provided");
    }
    if (reviewVersion.equals("v1") && !uid.equals(response.path("uid").asText(""))) {
      throw failed(
          gvk,
          "expected response.uid=\"" + uid + "\", got \"" + response.path("uid").asText("") + "\"");
    }
    JsonNode result = response.path("result");
    if (!"Success".equals(result.path("status").asText(""))) {
      String message = result.path("message").asText("");
      throw failed(
          gvk,
          !message.isEmpty()
              ? message
              : "response.result.status was '"
                  + result.path("status").asText("")
                  + "', not 'Success'");
    }
    JsonNode objects = response.path("convertedObjects");
    if (objects.size() != 1) {
      throw new IllegalArgumentException(
          "conversion webhook for " + gvk + " returned " + objects.size() + " objects, expected 1");
    }
    JsonNode one = objects.get(0);
    if (!one.isObject()) {
      throw new IllegalArgumentException(
          "conversion webhook for " + gvk + " returned invalid object at index 0: not an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> converted = JSON.convertValue(one, LinkedHashMap.class);
    return converted;
  }

  /**
   * The original metadata with the webhook's labels and annotations, as kube-apiserver's
   * restoreObjectMeta takes them: nothing else of the webhook's metadata is kept.
   */
  private static Map<String, Object> restoredMetadata(
      String gvk, Map<String, Object> original, Map<String, Object> returned) {
    String prefix = "conversion webhook for " + gvk + " returned invalid metadata: ";
    if (returned == null) {
      throw new IllegalArgumentException(prefix + "missing metadata in converted object");
    }
    Map<String, Object> metadata = original == null ? new LinkedHashMap<>() : deepCopy(original);
    for (String field : List.of("labels", "annotations")) {
      Object value = returned.get(field);
      if (value == null) {
        metadata.remove(field);
        continue;
      }
      Map<String, Object> given = map(value);
      if (given == null) {
        throw new IllegalArgumentException(
            prefix
                + "invalid metadata."
                + field
                + " of type "
                + goType(value)
                + " in converted object");
      }
      Map<String, String> strings = new LinkedHashMap<>();
      for (Map.Entry<String, Object> entry : given.entrySet()) {
        if (!(entry.getValue() instanceof String text)) {
          throw new IllegalArgumentException(
              prefix
                  + "metadata."
                  + field
                  + "["
                  + entry.getKey()
                  + "] must be a string, but is "
                  + goType(entry.getValue())
                  + " in converted object");
        }
        strings.put(entry.getKey(), text);
      }
      if (!strings.equals(metadata.get(field))) {
        List<FieldError> errors =
            field.equals("labels")
                ? ObjectMetaValidation.validateLabels(strings, FieldPath.of("metadata", "labels"))
                : ObjectMetaValidation.validateAnnotations(
                    strings, FieldPath.of("metadata", "annotation"));
        if (!errors.isEmpty()) {
          throw new IllegalArgumentException(prefix + FieldError.aggregate(errors));
        }
      }
      metadata.put(field, new LinkedHashMap<String, Object>(strings));
    }
    return metadata;
  }

  private static IllegalArgumentException failed(String gvk, String why) {
    return new IllegalArgumentException("conversion webhook for " + gvk + " failed: " + why);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepCopy(Map<String, Object> map) {
    return JSON.convertValue(map, LinkedHashMap.class);
  }

  private static String text(Object value) {
    return value == null ? "" : value.toString();
  }

  /** Go's name of a JSON value's type, for the error texts. */
  private static String goType(Object value) {
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Boolean) {
      return "bool";
    }
    if (value instanceof Number) {
      return value instanceof Double || value instanceof Float ? "float64" : "int64";
    }
    if (value instanceof List<?>) {
      return "[]interface {}";
    }
    return "map[string]interface {}";
  }
}
