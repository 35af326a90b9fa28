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

; -- imports -----------------------------------------------------------------------------------------------------
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression
  function: (identifier) @_require (#eq? @_require "require")
  arguments: (arguments . (string (string_fragment) @import)))
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import)))
