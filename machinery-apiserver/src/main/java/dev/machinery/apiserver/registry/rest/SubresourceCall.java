package dev.machinery.apiserver.registry.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiHandler;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One request of a {@link SubresourceAction}: who asks, the parent object it names, the body, and
 * the ways the handler may act — on the parent directly, as kube-apiserver's subresource storage
 * does, or on anything through the server's own API as its loopback user.
 *
 * <p>Used by one request's thread.
 */
public interface SubresourceCall {
  /**
   * Returns the authenticated user.
   *
   * @return the user
   */
  UserInfo user();

  /**
   * Returns the verb: {@code create}, {@code update} or {@code get}.
   *
   * @return the verb
   */
  String verb();

  /**
   * Returns the parent's namespace.
   *
   * @return the namespace, or {@code null} for a cluster-scoped parent
   */
  String namespace();

  /**
   * Returns the parent's name.
   *
   * @return the name
   */
  String name();

  /**
   * Returns the request's body read as a tree (JSON or YAML), or empty when it has none.
   *
   * @return the body
   */
  Optional<ObjectNode> body();

  /**
   * Returns a query parameter.
   *
   * @param name the parameter
   * @return its first value, or {@code null}
   */
  String parameter(String name);

  /**
   * Tells whether the request asked for a dry run ({@code dryRun=All}).
   *
   * @return true for a dry run
   */
  boolean dryRun();

  /**
   * Reads the parent as stored.
   *
   * @return its JSON tree, with {@code apiVersion}, {@code kind} and {@code resourceVersion}
   * @throws dev.machinery.unversioned.errors.StatusException {@code 404} when absent
   */
  ObjectNode parent();

  /**
   * Changes the parent as the server itself (no admission, update strategy or validation), under
   * compare-and-swap, calling {@code change} again after a concurrent write; a dry run stops before
   * storing. An object being deleted that no finalizer holds any more is removed.
   *
   * @param change makes the new tree from the stored one (which it may change)
   * @return the parent as stored
   */
  ObjectNode updateParent(UnaryOperator<ObjectNode> change);

  /**
   * Returns the server as its loopback user ({@code system:apiserver}), for what the handler does
   * through the API: reading other objects, deleting through the delete rules.
   *
   * @return the handler
   */
  ApiHandler loopback();
}
