package dev.machinery.apiserver.storage;

/**
 * What {@link Storage#checkUnchanged} found: the store's current revision, and whether the keys
 * under the prefix asked about are at it what they were at the earlier revision asked about.
 *
 * <p>Immutable.
 *
 * @param currentRevision the store's revision when it was read
 * @param unchanged true when no key under the prefix was created, changed or deleted after the
 *     earlier revision, up to {@code currentRevision}; false when one was or the store cannot tell
 */
public record RevisionCheck(long currentRevision, boolean unchanged) {}
