package dev.machinery.apiserver.authentication;

import dev.machinery.apiserver.http.ApiRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tells who a request comes from, as Kubernetes' {@code authenticator.Request}: a user, nothing
 * (this authenticator found no credentials of its kind), or an {@link AuthenticationException}
 * (credentials of its kind that are not good).
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface Authenticator {
  /**
   * Authenticates a request.
   *
   * @param request the request
   * @return the user, or empty when the request has no credentials this authenticator reads
   * @throws AuthenticationException when it has such credentials and they are not good
   */
  Optional<UserInfo> authenticate(ApiRequest request) throws AuthenticationException;

  /**
   * Tries authenticators in order, as Kubernetes' {@code union}: the first user found wins; when
   * none finds one and any failed, the request fails with their messages.
   *
   * @param authenticators the authenticators, in order
   * @return the union
   */
  static Authenticator union(List<Authenticator> authenticators) {
    List<Authenticator> all = List.copyOf(authenticators);
    return request -> {
      List<String> errors = new ArrayList<>();
      for (Authenticator authenticator : all) {
        try {
          Optional<UserInfo> user = authenticator.authenticate(request);
          if (user.isPresent()) {
            return user;
          }
        } catch (AuthenticationException e) {
          errors.add(e.getMessage());
        }
      }
      if (!errors.isEmpty()) {
        throw new AuthenticationException(String.join("; ", errors));
      }
      return Optional.empty();
    };
  }

  /**
   * Chains authenticators as kube-apiserver does: their {@link #union} (client certificates first,
   * then bearer tokens, in the order given), {@link UserInfo#ALL_AUTHENTICATED} added to the groups
   * of the user found; then, when none found a user and none failed, the request is {@link
   * UserInfo#ANONYMOUS} in {@link UserInfo#ALL_UNAUTHENTICATED} if anonymous requests are allowed,
   * and fails otherwise. Bad credentials fail whether or not anonymous requests are allowed: a bad
   * token is never taken for no token.
   *
   * @param authenticators the authenticators, in order
   * @param anonymous whether a request without credentials is let in as {@link UserInfo#ANONYMOUS}
   *     ({@code --anonymous-auth})
   * @return the chain; it never returns empty
   */
  static Authenticator chain(List<Authenticator> authenticators, boolean anonymous) {
    Authenticator union = union(authenticators);
    return request -> {
      Optional<UserInfo> user = union.authenticate(request);
      if (user.isPresent()) {
        return Optional.of(user.get().withGroup(UserInfo.ALL_AUTHENTICATED));
      }
      if (anonymous) {
        return Optional.of(UserInfo.of(UserInfo.ANONYMOUS, List.of(UserInfo.ALL_UNAUTHENTICATED)));
      }
      throw new AuthenticationException("no credentials, and anonymous requests are off");
    };
  }
}
