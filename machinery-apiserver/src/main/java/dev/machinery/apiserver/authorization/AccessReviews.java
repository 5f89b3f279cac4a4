package dev.machinery.apiserver.authorization;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.v1.AuthorizationV1;
import dev.machinery.apiserver.authorization.v1.LocalSubjectAccessReview;
import dev.machinery.apiserver.authorization.v1.NonResourceAttributes;
import dev.machinery.apiserver.authorization.v1.NonResourceRule;
import dev.machinery.apiserver.authorization.v1.ResourceAttributes;
import dev.machinery.apiserver.authorization.v1.ResourceRule;
import dev.machinery.apiserver.authorization.v1.SelfSubjectAccessReview;
import dev.machinery.apiserver.authorization.v1.SelfSubjectAccessReviewSpec;
import dev.machinery.apiserver.authorization.v1.SelfSubjectRulesReview;
import dev.machinery.apiserver.authorization.v1.SubjectAccessReview;
import dev.machinery.apiserver.authorization.v1.SubjectAccessReviewSpec;
import dev.machinery.apiserver.authorization.v1.SubjectAccessReviewStatus;
import dev.machinery.apiserver.authorization.v1.SubjectRulesReviewStatus;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.ContentTypeNegotiator;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Answers {@code authorization.k8s.io/v1} {@code SelfSubjectAccessReview} (may I?), {@code
 * SelfSubjectRulesReview} (what may I do in a namespace?), {@code SubjectAccessReview} (may
 * someone?) and {@code LocalSubjectAccessReview} (may someone, in this namespace?): creates that
 * are not stored, answered {@code 201} in JSON with the review and its status, as {@code kubectl
 * auth can-i [--list]} asks them. Bodies are read in JSON, YAML or Kubernetes' protobuf (kubectl
 * 1.32 and later write protobuf), through a Scheme of the server's own, so the user's Scheme needs
 * none of these kinds. Immutable; thread-safe.
 */
public final class AccessReviews {
  private static final String PREFIX = "/apis/authorization.k8s.io/v1/";
  private static final String NAMESPACES = "namespaces/";
  private static final String LOCAL = "localsubjectaccessreviews";
  private static final String LOCAL_KIND = "LocalSubjectAccessReview";
  private static final long MAX_BODY_BYTES = 256 * 1024;
  private static final Scheme SCHEME =
      AuthorizationV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final CodecFactory CODECS = CodecFactory.create(SCHEME);
  private static final ProtobufCodec PROTOBUF = ProtobufCodec.create(SCHEME);
  private static final ContentTypeNegotiator BODIES =
      ContentTypeNegotiator.builder()
          .accept("application/json", CODECS.json())
          .accept("application/yaml", CODECS.yaml())
          .accept(ProtobufCodec.MEDIA_TYPE)
          .build();

  private final Authorizer authorizer;
  private final RuleResolver rules;

  /**
   * The reviews as kube-apiserver's discovery lists them: {@code create} only, the local one
   * namespaced.
   *
   * @return the discovery entries
   */
  public static List<ResourceInfo> discovery() {
    return List.of(
        review("LocalSubjectAccessReview", true),
        review("SelfSubjectAccessReview", false),
        review("SelfSubjectRulesReview", false),
        review("SubjectAccessReview", false));
  }

  static ResourceInfo review(String kind, boolean namespaced) {
    String singular = kind.toLowerCase(Locale.ROOT);
    return new ResourceInfo(
        kind,
        singular + "s",
        singular,
        namespaced,
        List.of("create"),
        List.of(),
        List.of(),
        List.of());
  }

  /**
   * Creates the reviews.
   *
   * @param authorizer the server's authorizer, which answers the access reviews
   * @param rules what a user may do, for the SelfSubjectRulesReview
   */
  public AccessReviews(Authorizer authorizer, RuleResolver rules) {
    this.authorizer = authorizer;
    this.rules = rules;
  }

  /**
   * Answers a request for an access review.
   *
   * @param request the request
   * @param user the user it is made as
   * @return the answer, or empty when the request is for something else
   */
  public Optional<ApiResponse> handle(ApiRequest request, UserInfo user) {
    String path = request.path();
    if (!path.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String resource = path.substring(PREFIX.length());
    String namespace = null;
    if (resource.startsWith(NAMESPACES)) {
      int slash = resource.indexOf('/', NAMESPACES.length());
      if (slash < 0 || !resource.substring(slash + 1).equals(LOCAL)) {
        return Optional.empty();
      }
      namespace = resource.substring(NAMESPACES.length(), slash);
      resource = LOCAL;
    }
    Class<?> type =
        switch (resource) {
          case "selfsubjectaccessreviews" -> SelfSubjectAccessReview.class;
          case "selfsubjectrulesreviews" -> SelfSubjectRulesReview.class;
          case "subjectaccessreviews" -> SubjectAccessReview.class;
          case LOCAL -> namespace == null ? null : LocalSubjectAccessReview.class;
          default -> null;
        };
    if (type == null) {
      return Optional.empty();
    }
    if (!request.method().equals("POST")) {
      throw ApiErrors.newMethodNotSupported(
          new GroupResource(AuthorizationV1.GROUP, resource), request.method());
    }
    Object review = read(request, type);
    Object answered;
    if (review instanceof SelfSubjectAccessReview self) {
      SelfSubjectAccessReviewSpec spec =
          Objects.requireNonNullElse(self.getSpec(), new SelfSubjectAccessReviewSpec(null, null));
      self.setStatus(
          decide(
              attributes(
                  "SelfSubjectAccessReview",
                  user,
                  spec.resourceAttributes(),
                  spec.nonResourceAttributes())));
      answered = self;
    } else if (review instanceof SubjectAccessReview other) {
      SubjectAccessReviewSpec spec =
          Objects.requireNonNullElse(
              other.getSpec(), new SubjectAccessReviewSpec(null, null, null, null, null, null));
      other.setStatus(
          decide(
              attributes(
                  "SubjectAccessReview",
                  subject(spec),
                  spec.resourceAttributes(),
                  spec.nonResourceAttributes())));
      answered = other;
    } else if (review instanceof LocalSubjectAccessReview local) {
      local.setStatus(decide(local(local, namespace)));
      answered = local;
    } else {
      SelfSubjectRulesReview rulesReview = (SelfSubjectRulesReview) review;
      String rulesNamespace =
          rulesReview.getSpec() == null || rulesReview.getSpec().namespace() == null
              ? ""
              : rulesReview.getSpec().namespace();
      rulesReview.setStatus(rulesFor(user, rulesNamespace));
      answered = rulesReview;
    }
    metaOf(answered);
    return Optional.of(ApiResponse.of(201, "application/json", CODECS.json().encode(answered)));
  }

  /**
   * Gives the review metadata when it came without, as Go writes {@code creationTimestamp: null}.
   */
  private static ObjectMeta metaOf(Object review) {
    ObjectMeta meta;
    if (review instanceof SelfSubjectAccessReview r) {
      meta = r.getMetadata() == null ? new ObjectMeta() : r.getMetadata();
      r.setMetadata(meta);
    } else if (review instanceof SubjectAccessReview r) {
      meta = r.getMetadata() == null ? new ObjectMeta() : r.getMetadata();
      r.setMetadata(meta);
    } else if (review instanceof LocalSubjectAccessReview r) {
      meta = r.getMetadata() == null ? new ObjectMeta() : r.getMetadata();
      r.setMetadata(meta);
    } else {
      SelfSubjectRulesReview r = (SelfSubjectRulesReview) review;
      meta = r.getMetadata() == null ? new ObjectMeta() : r.getMetadata();
      r.setMetadata(meta);
    }
    return meta;
  }

  /**
   * The question a LocalSubjectAccessReview asks, after the checks kube-apiserver makes: the
   * object's namespace is the request's (filled in when absent, a 400 when another), and then, all
   * reported at once in a 422, exactly one of resource and non-resource attributes, a user or
   * group, the attributes' namespace equal to the object's, and no non-resource attributes.
   */
  private static Attributes local(LocalSubjectAccessReview review, String namespace) {
    ObjectMeta meta = metaOf(review);
    String declared = text(meta.getNamespace());
    if (declared.isEmpty()) {
      meta.setNamespace(namespace);
    } else if (!declared.equals(namespace)) {
      throw ApiErrors.newBadRequest(
          "the namespace of the provided object does not match the namespace sent on the"
              + " request");
    }
    SubjectAccessReviewSpec spec =
        Objects.requireNonNullElse(
            review.getSpec(), new SubjectAccessReviewSpec(null, null, null, null, null, null));
    ResourceAttributes resource = spec.resourceAttributes();
    NonResourceAttributes nonResource = spec.nonResourceAttributes();
    FieldPath specPath = FieldPath.of("spec");
    List<FieldError> errors = new ArrayList<>();
    if (resource != null && nonResource != null) {
      errors.add(
          FieldError.invalid(
              specPath.child("nonResourceAttributes"),
              nonResource,
              "cannot be specified in combination with resourceAttributes"));
    } else if (resource == null && nonResource == null) {
      errors.add(
          FieldError.invalid(
              specPath.child("resourceAttributes"),
              "null",
              "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
    }
    if (text(spec.user()).isEmpty() && (spec.groups() == null || spec.groups().isEmpty())) {
      errors.add(
          FieldError.invalid(
              specPath.child("user"), "", "at least one of user or group must be specified"));
    }
    if (resource != null && !text(resource.namespace()).equals(namespace)) {
      errors.add(
          FieldError.invalid(
              specPath.child("resourceAttributes").child("namespace"),
              text(resource.namespace()),
              "must match metadata.namespace"));
    }
    if (nonResource != null) {
      errors.add(
          FieldError.invalid(
              specPath.child("nonResourceAttributes"),
              nonResource,
              "disallowed on this kind of request"));
    }
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(GroupKind.of(AuthorizationV1.GROUP, LOCAL_KIND), "", errors);
    }
    return attributes(LOCAL_KIND, subject(spec), resource, null);
  }

  private SubjectAccessReviewStatus decide(Attributes attributes) {
    Authorization answer = authorizer.authorize(attributes);
    return new SubjectAccessReviewStatus(
        answer.decision() == Decision.ALLOW,
        answer.decision() == Decision.DENY ? Boolean.TRUE : null,
        answer.reason().isEmpty() ? null : answer.reason(),
        null);
  }

  private SubjectRulesReviewStatus rulesFor(UserInfo user, String namespace) {
    SubjectRules found = rules.rulesFor(user, namespace);
    List<ResourceRule> resources = new ArrayList<>();
    for (SubjectRules.ResourceRule rule : found.resourceRules()) {
      resources.add(
          new ResourceRule(
              rule.verbs(),
              orNull(rule.apiGroups()),
              orNull(rule.resources()),
              orNull(rule.resourceNames())));
    }
    List<NonResourceRule> paths = new ArrayList<>();
    for (SubjectRules.NonResourceRule rule : found.nonResourceRules()) {
      paths.add(new NonResourceRule(rule.verbs(), orNull(rule.nonResourceURLs())));
    }
    return new SubjectRulesReviewStatus(
        resources,
        paths,
        found.incomplete(),
        found.evaluationError().isEmpty() ? null : found.evaluationError());
  }

  private static List<String> orNull(List<String> values) {
    return values.isEmpty() ? null : values;
  }

  private static Attributes attributes(
      String kind, UserInfo user, ResourceAttributes resource, NonResourceAttributes nonResource) {
    if ((resource == null) == (nonResource == null)) {
      throw ApiErrors.newInvalid(
          GroupKind.of(AuthorizationV1.GROUP, kind),
          "",
          List.of(
              FieldError.invalid(
                  FieldPath.of("spec").child("resourceAttributes"),
                  resource == null ? "null" : "both",
                  "exactly one of nonResourceAttributes or resourceAttributes must be"
                      + " specified")));
    }
    if (nonResource != null) {
      return Attributes.nonResource(user, text(nonResource.verb()), text(nonResource.path()));
    }
    return new Attributes(
        user,
        text(resource.verb()),
        true,
        resource.group(),
        resource.version(),
        resource.resource(),
        resource.subresource(),
        resource.namespace(),
        resource.name(),
        "");
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }

  private static UserInfo subject(SubjectAccessReviewSpec spec) {
    List<String> groups = spec.groups() == null ? List.of() : spec.groups();
    if (text(spec.user()).isEmpty() && groups.isEmpty()) {
      throw ApiErrors.newInvalid(
          GroupKind.of(AuthorizationV1.GROUP, "SubjectAccessReview"),
          "",
          List.of(
              FieldError.invalid(
                  FieldPath.of("spec").child("user"),
                  "",
                  "at least one of user or group must be specified")));
    }
    Map<String, List<String>> extra = spec.extra() == null ? Map.of() : spec.extra();
    return new UserInfo(text(spec.user()), spec.uid(), groups, extra);
  }

  private static Object read(ApiRequest request, Class<?> type) {
    byte[] bytes;
    try (var body = request.body()) {
      bytes = body.readNBytes((int) MAX_BODY_BYTES + 1);
    } catch (IOException e) {
      throw (StatusException)
          ApiErrors.newBadRequest("the request body cannot be read").initCause(e);
    }
    if (bytes.length > MAX_BODY_BYTES) {
      throw ApiErrors.newRequestEntityTooLarge(
          "an access review is at most " + MAX_BODY_BYTES + " bytes");
    }
    if (bytes.length == 0) {
      throw ApiErrors.newBadRequest(
          "the request body is empty: an object of kind " + type.getSimpleName() + " is expected");
    }
    String chosen = BODIES.choose(request.header("Content-Type"));
    Object object;
    if (chosen.equals(ProtobufCodec.MEDIA_TYPE)) {
      object = PROTOBUF.decode(bytes).object();
    } else {
      Codec codec = BODIES.negotiate(chosen);
      object = codec.decode(bytes, type).object();
    }
    if (!type.isInstance(object)) {
      throw ApiErrors.newBadRequest(
          "the body is a "
              + object.getClass().getSimpleName()
              + " where a "
              + type.getSimpleName()
              + " is expected");
    }
    return object;
  }
}
