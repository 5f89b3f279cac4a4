/**
 * Informers and their caches, after client-go's {@code tools/cache}.
 *
 * <p>A {@link dev.machinery.controller.cache.ListerWatcher} lists and watches one resource; a
 * {@link dev.machinery.controller.cache.Reflector} lists it, then watches from the list's resource
 * version, and feeds a {@link dev.machinery.controller.cache.DeltaFIFO}; a {@link
 * dev.machinery.controller.cache.SharedIndexInformer} pops the deltas into a thread-safe {@link
 * dev.machinery.controller.cache.Indexer} and hands add, update and delete notifications to every
 * registered {@link dev.machinery.controller.cache.ResourceEventHandler}. {@link
 * dev.machinery.controller.cache.Lister} reads the cache; {@link
 * dev.machinery.controller.cache.SharedInformerFactory} keeps one informer per resource.
 *
 * <p>Objects are the Scheme's typed classes or {@code Unstructured}; their metadata is read through
 * {@link dev.machinery.unversioned.meta.v1.Accessor#of(Object)}. Objects in a cache are shared:
 * never change one you read from it.
 */
package dev.machinery.controller.cache;
