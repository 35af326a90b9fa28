; Rust

; -- definitions -------------------------------------------------------------------------------------------------
(function_item name: (identifier) @name.definition.function)
(function_signature_item name: (identifier) @name.definition.function)
(struct_item name: (type_identifier) @name.definition.class)
(enum_item name: (type_identifier) @name.definition.enum)
(union_item name: (type_identifier) @name.definition.class)
(trait_item name: (type_identifier) @name.definition.interface)
(type_item name: (type_identifier) @name.definition.type)
(mod_item name: (identifier) @name.definition.module)
(macro_definition name: (identifier) @name.definition.macro)
(const_item name: (identifier) @name.definition.constant)
(static_item name: (identifier) @name.definition.constant)

; -- references --------------------------------------------------------------------------------------------------
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (scoped_identifier name: (identifier) @name.reference.call))
(macro_invocation macro: (identifier) @name.reference.call)
(impl_item trait: (type_identifier) @name.reference.class)
(impl_item type: (type_identifier) @name.reference.class)
(type_identifier) @name.reference.type
(field_identifier) @name.reference.member
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(use_declaration argument: [(scoped_identifier) (identifier)] @import)
(use_declaration argument: (use_as_clause path: (_) @import))
(use_declaration argument: (use_wildcard (_) @import.wildcard))
(use_declaration argument: (scoped_use_list path: (_) @import list: (use_list [(identifier) (scoped_identifier) (self)] @import.name)))
(mod_item !body name: (identifier) @import.relative)
