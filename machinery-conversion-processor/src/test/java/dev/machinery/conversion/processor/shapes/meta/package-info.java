/** Shared types used by both forms of the shapes API. */
@GenerateDeepCopy
package dev.machinery.conversion.processor.shapes.meta;

import dev.machinery.conversion.GenerateDeepCopy;
