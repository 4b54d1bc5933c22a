extension JSONValue: Codable {
    /// Decodes any JSON value; with ``JSONValueDecoder`` the subtree is taken as is.
    ///
    /// With other decoders (e.g. Foundation's `JSONDecoder`) the value is rebuilt through containers;
    /// object key order then follows that decoder's `allKeys`, which may not be the document order.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoderImpl {
            self = decoder.value
            // Bytes sent beside the JSON are base64 text to a reader of raw JSON, as in plain JSON.
            if !decoder.context.attachments.isEmpty {
                self = BridgeValue(self, bytes: decoder.context.bytes(under: decoder.node)).plainJSON
            }
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let keyed = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var object = JSONObject()
            for key in keyed.allKeys {
                object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
        } else {
            var unkeyed = try decoder.unkeyedContainer()
            var array: [JSONValue] = []
            array.reserveCapacity(unkeyed.count ?? 0)
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(array)
        }
    }

    /// Encodes the value as the JSON it is; with ``JSONValueEncoder`` it is stored as is.
    ///
    /// Integral numbers within ±2^53 are encoded as `Int`, others as `Double`.
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueEncoderImpl {
            encoder.storage = .value(self)
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if number.rounded(.towardZero) == number, number.magnitude <= JSONValue.maxExactInteger {
                try container.encode(Int(number))
            } else {
                try container.encode(number)
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (key, value) in object { try container.encode(value, forKey: JSONCodingKey(stringValue: key)) }
        }
    }
}
