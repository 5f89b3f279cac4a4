package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.AuthorizationErrors;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.unversioned.errors.ApiErrors;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kube-apiserver's impersonation ({@code kubectl --as}, {@code --as-group}, {@code --as-uid}): the
 * {@code Impersonate-User}, {@code Impersonate-Group}, {@code Impersonate-Uid} and {@code
 * Impersonate-Extra-KEY} headers make the request one of another user, if the authenticated user
 * may {@code impersonate} each of them: {@code users} (or the {@code serviceaccounts} of a name
 * {@code system:serviceaccount:NS:NAME}), {@code groups}, {@code uids} and {@code userextras/KEY}
 * of {@code authentication.k8s.io}. A refusal is a 403 in kube-apiserver's words. The user
 * impersonated is in {@code system:authenticated} (or, for {@code system:anonymous}, {@code
 * system:unauthenticated}) unless the groups asked for name one of those; a service account without
 * groups asked for is in {@code system:serviceaccounts} and {@code system:serviceaccounts:NS}. The
 * impersonated user is recorded in the request's audit event. Immutable; thread-safe.
 */
public final class ImpersonationFilter implements Filter {
  static final String USER = "Impersonate-User";
  static final String GROUP = "Impersonate-Group";
  static final String UID = "Impersonate-Uid";
  static final String EXTRA_PREFIX = "Impersonate-Extra-";
  private static final String SERVICE_ACCOUNT = "system:serviceaccount:";

  private final Authorizer authorizer;

  /**
   * Creates the filter.
   *
   * @param authorizer decides whether the authenticated user may impersonate whom it asks to
   */
  public ImpersonationFilter(Authorizer authorizer) {
    this.authorizer = java.util.Objects.requireNonNull(authorizer, "authorizer");
  }

  @Override
  public ApiResponse filter(RequestContext request, Handler next) {
    UserInfo authenticated = request.user();
    UserInfo user = apply(request.request(), authenticated, authorizer);
    if (user == authenticated) {
      return next.handle(request);
    }
    request.audit().impersonated(user);
    return next.handle(request.withUser(user));
  }

  /** The user the request is made as: {@code user}, or the one it impersonates. */
  private static UserInfo apply(ApiRequest request, UserInfo user, Authorizer authorizer) {
    String name = request.header(USER);
    List<String> groups = request.headers().getOrDefault(GROUP, List.of());
    String uid = request.header(UID);
    Map<String, List<String>> extra = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
      if (header.getKey().regionMatches(true, 0, EXTRA_PREFIX, 0, EXTRA_PREFIX.length())) {
        String key =
            URLDecoder.decode(
                    header.getKey().substring(EXTRA_PREFIX.length()), StandardCharsets.UTF_8)
                .toLowerCase(Locale.ROOT);
        extra.put(key, header.getValue());
      }
    }
    if (name == null && groups.isEmpty() && uid == null && extra.isEmpty()) {
      return user;
    }
    if (name == null || name.isEmpty()) {
      List<String> asked = new ArrayList<>();
      groups.forEach(g -> asked.add(GROUP + ": " + g));
      if (uid != null) {
        asked.add(UID + ": " + uid);
      }
      extra.forEach((k, v) -> asked.add(EXTRA_PREFIX + k + ": " + v));
      throw ApiErrors.newBadRequest(
          "requested [" + String.join(" ", asked) + "] without impersonating a user");
    }
    List<String> finalGroups = new ArrayList<>(groups);
    if (name.startsWith(SERVICE_ACCOUNT) && name.split(":", -1).length == 4) {
      String[] parts = name.split(":", -1);
      check(
          authorizer,
          Attributes.resource(user, "impersonate", "", "serviceaccounts", "", parts[2], parts[3]));
      if (groups.isEmpty()) {
        finalGroups.add("system:serviceaccounts");
        finalGroups.add("system:serviceaccounts:" + parts[2]);
      }
    } else {
      check(authorizer, Attributes.resource(user, "impersonate", "", "users", "", "", name));
    }
    for (String group : groups) {
      check(authorizer, Attributes.resource(user, "impersonate", "", "groups", "", "", group));
    }
    if (uid != null) {
      check(
          authorizer,
          Attributes.resource(user, "impersonate", "authentication.k8s.io", "uids", "", "", uid));
    }
    for (Map.Entry<String, List<String>> entry : extra.entrySet()) {
      for (String value : entry.getValue()) {
        check(
            authorizer,
            Attributes.resource(
                user,
                "impersonate",
                "authentication.k8s.io",
                "userextras",
                entry.getKey(),
                "",
                value));
      }
    }
    if (!name.equals(UserInfo.ANONYMOUS)) {
      if (!finalGroups.contains(UserInfo.ALL_AUTHENTICATED)
          && !finalGroups.contains(UserInfo.ALL_UNAUTHENTICATED)) {
        finalGroups.add(UserInfo.ALL_AUTHENTICATED);
      }
    } else if (!finalGroups.contains(UserInfo.ALL_UNAUTHENTICATED)) {
      finalGroups.add(UserInfo.ALL_UNAUTHENTICATED);
    }
    return new UserInfo(name, uid, finalGroups, extra);
  }

  private static void check(Authorizer authorizer, Attributes attributes) {
    Authorization answer = authorizer.authorize(attributes);
    if (!answer.allowed()) {
      throw AuthorizationErrors.forbidden(attributes, answer.reason());
    }
  }
}
