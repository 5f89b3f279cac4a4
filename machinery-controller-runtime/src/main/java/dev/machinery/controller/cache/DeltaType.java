package dev.machinery.controller.cache;

/** What happened to an object ({@code cache.DeltaType}). Immutable; thread-safe. */
public enum DeltaType {
  /** The watch saw it added. */
  ADDED,
  /** The watch saw it change. */
  UPDATED,
  /** It was deleted; see {@link Delta#finalStateUnknown()}. */
  DELETED,
  /** A relist listed it. */
  REPLACED,
  /** A periodic resync hands it out again, unchanged. */
  SYNC
}
