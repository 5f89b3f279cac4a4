/** The internal form every version converts through. */
@GenerateDeepCopy
package com.example.widgets.internal;

import dev.machinery.conversion.GenerateDeepCopy;
