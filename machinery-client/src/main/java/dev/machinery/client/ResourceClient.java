package dev.machinery.client;

import dev.machinery.restmapper.RESTMapping;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.GetOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.util.List;
import java.util.Optional;

/**
 * The verbs of one resource, optionally in one namespace: client-go's {@code
 * dynamic.ResourceInterface} and a typed client's in one, for a class of the Scheme or for {@code
 * Unstructured} objects. Options are the {@code meta.k8s.io/v1} option types, written as query
 * parameters as Go's parameter codec writes them. A refusal of the server is thrown as the
 * library's typed API error ({@link dev.machinery.unversioned.errors.StatusException}, tested with
 * {@link dev.machinery.unversioned.errors.ApiErrors}' checks; {@link ResourceExpiredException} for
 * 410 Gone); a failure to reach the server as a {@link TransportException}.
 *
 * <p>For a namespaced resource, a verb on one object needs a namespace: this client's ({@link
 * #inNamespace}) or, for writes, the object's {@code metadata.namespace}; a list or watch without
 * one reads every namespace.
 *
 * <p>Immutable and safe for concurrent use.
 *
 * @param <T> the objects' class
 */
public interface ResourceClient<T> {
  /**
   * Returns a client of the same resource in a namespace.
   *
   * @param namespace the namespace; empty for every namespace (lists and watches)
   * @return the client
   */
  ResourceClient<T> inNamespace(String namespace);

  /**
   * Returns this client's namespace.
   *
   * @return the namespace; empty for none
   */
  String namespace();

  /**
   * Returns how the resource is served: its resource, kind and scope, from the REST mapper.
   *
   * @return the mapping
   * @throws dev.machinery.restmapper.NoMatchException when the server does not serve it
   */
  RESTMapping mapping();

  /**
   * Reads one object.
   *
   * @param name the name
   * @param options the options ({@code resourceVersion})
   * @return the object
   */
  T get(String name, GetOptions options);

  /**
   * Reads one object, as the server holds it now.
   *
   * @param name the name
   * @return the object
   */
  default T get(String name) {
    return get(name, new GetOptions());
  }

  /**
   * Reads one page of the list.
   *
   * @param options selectors, {@code limit}, {@code continue}, resource version
   * @return the page
   */
  ListPage<T> list(ListOptions options);

  /**
   * Reads the whole list, following {@code continue} from page to page with the options' limit.
   *
   * @param options selectors, {@code limit} (the page size), resource version
   * @return every item
   */
  List<T> listAll(ListOptions options);

  /**
   * Starts a watch ({@code watch=true} is set on a copy of the options).
   *
   * @param options selectors, {@code resourceVersion} to resume from, {@code allowWatchBookmarks},
   *     {@code timeoutSeconds}
   * @return the watch; close it
   */
  Watch<T> watch(ListOptions options);

  /**
   * Creates an object.
   *
   * @param object the object
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}
   * @return the object as created
   */
  T create(T object, CreateOptions options);

  /**
   * Creates an object with default options.
   *
   * @param object the object
   * @return the object as created
   */
  default T create(T object) {
    return create(object, new CreateOptions());
  }

  /**
   * Replaces an object (its {@code resourceVersion} makes it a compare-and-swap).
   *
   * @param object the object
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}
   * @return the object as stored
   */
  T update(T object, UpdateOptions options);

  /**
   * Replaces an object with default options.
   *
   * @param object the object
   * @return the object as stored
   */
  default T update(T object) {
    return update(object, new UpdateOptions());
  }

  /**
   * Replaces an object's status through the {@code status} subresource.
   *
   * @param object the object
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}
   * @return the object as stored
   */
  T updateStatus(T object, UpdateOptions options);

  /**
   * Patches an object or one of its subresources.
   *
   * @param name the name
   * @param type the patch's type
   * @param body the patch
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}, {@code force}
   * @param subresource the subresource (such as {@code status}), or none
   * @return the object as stored
   */
  T patch(String name, PatchType type, String body, PatchOptions options, String... subresource);

  /**
   * Applies an object with server-side apply: the fields it sets become the manager's.
   *
   * @param object the object, its name set
   * @param fieldManager the manager
   * @param force whether to take fields other managers own instead of failing with a conflict
   * @return the object as stored
   */
  T apply(T object, String fieldManager, boolean force);

  /**
   * Deletes an object.
   *
   * @param name the name
   * @param options {@code propagationPolicy}, {@code preconditions}, {@code gracePeriodSeconds},
   *     {@code dryRun}
   * @return the object when the server answered with it (its deletion waits on finalizers, or the
   *     resource returns deleted objects); empty when it answered with a {@code Status}
   */
  Optional<T> delete(String name, DeleteOptions options);

  /**
   * Deletes an object with default options.
   *
   * @param name the name
   * @return see {@link #delete(String, DeleteOptions)}
   */
  default Optional<T> delete(String name) {
    return delete(name, new DeleteOptions());
  }

  /**
   * Deletes every object the list options select.
   *
   * @param options the delete options
   * @param listOptions selectors
   */
  void deleteCollection(DeleteOptions options, ListOptions listOptions);

  /**
   * Reads the {@code scale} subresource.
   *
   * @param name the name
   * @return the {@code autoscaling/v1} Scale
   */
  Scale getScale(String name);

  /**
   * Replaces the {@code scale} subresource.
   *
   * @param name the name
   * @param scale the Scale ({@code spec.replicas})
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}
   * @return the Scale as stored
   */
  Scale updateScale(String name, Scale scale, UpdateOptions options);

  /**
   * Reads a subresource as a class of the client's Scheme (or {@code Unstructured}).
   *
   * @param name the name
   * @param subresource the subresource, such as {@code status}
   * @param type the class the answer decodes to
   * @param <S> the class
   * @return the answer
   */
  <S> S getSubresource(String name, String subresource, Class<S> type);

  /**
   * Replaces a subresource with a {@code PUT}.
   *
   * @param name the name
   * @param subresource the subresource, such as {@code status}
   * @param body the body, an object of the Scheme or {@code Unstructured}
   * @param type the class the answer decodes to
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}
   * @param <S> the class
   * @return the answer
   */
  <S> S updateSubresource(
      String name, String subresource, Object body, Class<S> type, UpdateOptions options);

  /**
   * Sends a body to a subresource with a {@code POST}, as kube's {@code binding}, {@code eviction}
   * and {@code token} subresources take theirs.
   *
   * @param name the name
   * @param subresource the subresource, such as {@code binding}
   * @param body the body, an object of the Scheme or {@code Unstructured}
   * @param type the class the answer decodes to
   * @param options {@code dryRun}, {@code fieldManager}, {@code fieldValidation}
   * @param <S> the class
   * @return the answer
   */
  <S> S createSubresource(
      String name, String subresource, Object body, Class<S> type, CreateOptions options);
}
