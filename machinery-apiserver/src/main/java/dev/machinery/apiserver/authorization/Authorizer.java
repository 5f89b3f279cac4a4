package dev.machinery.apiserver.authorization;

import dev.machinery.apiserver.authentication.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Decides whether a request may be made, as Kubernetes' {@code authorizer.Authorizer}. The server
 * asks it for every request after authentication, before anything else; a request not allowed is
 * answered {@code 403 Forbidden} with kube-apiserver's message ({@link AuthorizationErrors}).
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface Authorizer {
  /**
   * Decides one request.
   *
   * @param attributes what the request asks
   * @return the answer
   */
  Authorization authorize(Attributes attributes);

  /**
   * Allows everything ({@code --authorization-mode=AlwaysAllow}); a server's default, so that a
   * server without authorization behaves as it did before it had any.
   *
   * @return the authorizer
   */
  static Authorizer alwaysAllow() {
    return attributes -> Authorization.allow("");
  }

  /**
   * Refuses everything ({@code --authorization-mode=AlwaysDeny}).
   *
   * @return the authorizer
   */
  static Authorizer alwaysDeny() {
    return attributes -> Authorization.deny("");
  }

  /**
   * Allows every request of a user in one of the groups, and has no opinion on the others, as
   * kube-apiserver's privileged-groups authorizer that lets {@code system:masters} do everything.
   *
   * @param groups the groups, such as {@code system:masters}
   * @return the authorizer
   */
  static Authorizer privilegedGroups(String... groups) {
    Set<String> privileged = Set.of(groups);
    return attributes -> {
      UserInfo user = attributes.user();
      for (String group : user.groups()) {
        if (privileged.contains(group)) {
          return Authorization.allow("");
        }
      }
      return Authorization.noOpinion("");
    };
  }

  /**
   * Asks authorizers in order, as Kubernetes' {@code union}: the first that allows or refuses
   * decides; when all have no opinion, so has the union, with their reasons joined by {@code ", "}.
   *
   * @param authorizers the authorizers, in order
   * @return the union
   */
  static Authorizer union(List<Authorizer> authorizers) {
    List<Authorizer> all = List.copyOf(authorizers);
    return attributes -> {
      List<String> reasons = new ArrayList<>();
      for (Authorizer authorizer : all) {
        Authorization answer = authorizer.authorize(attributes);
        if (answer.decision() != Decision.NO_OPINION) {
          return answer;
        }
        if (!answer.reason().isEmpty()) {
          reasons.add(answer.reason());
        }
      }
      return Authorization.noOpinion(String.join(", ", reasons));
    };
  }
}
