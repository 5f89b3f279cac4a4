package dev.machinery.examples.webpage;

import dev.machinery.unversioned.meta.v1.Condition;
import java.util.List;

/**
 * What the WebPage controller last did. The record is immutable, but the {@link Condition}s it
 * holds are mutable beans: do not change them once the status is shared between threads.
 *
 * @param observedGeneration the generation of the spec the controller acted on
 * @param conditions the page's conditions; {@code Ready} says whether the ConfigMap holds the
 *     content
 */
public record WebPageStatus(Long observedGeneration, List<Condition> conditions) {}
