package dev.machinery.apiserver.audit;

import java.util.Objects;
import java.util.Set;

/**
 * What a policy decided for one request ({@code RequestAuditConfig}): the level, the stages not to
 * record, and whether to leave {@code metadata.managedFields} out of the objects recorded.
 * Immutable.
 *
 * @param level the level; {@link Level#NONE} records nothing
 * @param omitStages the stages not recorded
 * @param omitManagedFields whether the recorded objects leave out their managed fields
 */
public record RequestAuditConfig(Level level, Set<Stage> omitStages, boolean omitManagedFields) {
  /**
   * Copies the set.
   *
   * @param level see the record description
   * @param omitStages see the record description
   * @param omitManagedFields see the record description
   */
  public RequestAuditConfig {
    Objects.requireNonNull(level, "level");
    omitStages = Set.copyOf(omitStages);
  }
}
