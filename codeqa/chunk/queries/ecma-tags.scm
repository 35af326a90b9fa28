; What JavaScript and TypeScript share (javascript, typescript and tsx inherit it).

; -- definitions -------------------------------------------------------------------------------------------------
(function_declaration name: (identifier) @name.definition.function)
(generator_function_declaration name: (identifier) @name.definition.function)
(function_expression name: (identifier) @name.definition.function)
(class_declaration name: (_) @name.definition.class)
(class name: (_) @name.definition.class)
(method_definition name: (property_identifier) @name.definition.method)
(variable_declarator
  name: (identifier) @name.definition.function
  value: [(arrow_function) (function_expression) (generator_function)])
(assignment_expression
  left: (member_expression property: (property_identifier) @name.definition.function)
  right: [(arrow_function) (function_expression)])

; -- references --------------------------------------------------------------------------------------------------
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.class)
(identifier) @name.reference.identifier
(property_identifier) @name.reference.member
(shorthand_property_identifier) @name.reference.identifier
; `const { rawQuery } = prisma`: names taken from an object (a module's default export), in the order of the file
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @name.reference.destructured)
  value: (identifier))

; -- imports -----------------------------------------------------------------------------------------------------
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression
  function: (identifier) @_require (#eq? @_require "require")
  arguments: (arguments . (string (string_fragment) @import)))
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import)))

; the names an import binds: imported names and their aliases (`{a, b as c}`, `const {a, b: c} = require(...)`, re-exported names) and
; local names bound to the whole module (a default import, `* as m`, `const m = require(...)`)
(import_specifier name: (identifier) @import.name)
(import_specifier alias: (identifier) @import.name)
(export_statement (export_clause (export_specifier name: (_) @import.name)) source: (string))
(export_statement (export_clause (export_specifier alias: (_) @import.name)) source: (string))
(import_clause (identifier) @import.binding)
(namespace_import (identifier) @import.binding)
(variable_declarator
  name: (identifier) @import.binding
  value: (call_expression function: (identifier) @_require_binding (#eq? @_require_binding "require")))
(variable_declarator
  name: (object_pattern [(shorthand_property_identifier_pattern) @import.name
                         (pair_pattern key: (property_identifier) @import.name)
                         (pair_pattern value: (identifier) @import.name)])
  value: (call_expression function: (identifier) @_require_names (#eq? @_require_names "require")))
