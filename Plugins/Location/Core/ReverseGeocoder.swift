import Foundation
import JSBridgeBase

/// A city found for a coordinate.
public struct Place: Sendable, Hashable, Encodable {
    /// The city's name (localized when asked for and the data has it).
    public var city: String
    /// The first-level division (state, province); GeoNames' city data names them for the US only.
    public var state: String?
    /// The first-level division's GeoNames code (`CA`, `11`, …).
    public var stateCode: String?
    /// The country's name: in the requested language (`lang`) when one was asked for and the system's locale
    /// data (CLDR, through Foundation) names it, else English.
    public var country: String?
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    /// IANA time zone.
    public var timezone: String
    public var population: Int
    /// Great-circle distance from the queried point to the city's centre.
    public var distanceKm: Double
    /// The nearest populated place when it is a part of `city` (a district or suburb), else nil.
    public var district: String?
    /// The language of `city`: the requested one when a localized name exists, else nil (GeoNames' name).
    public var lang: String?
    public var latitude: Double
    public var longitude: Double
    public var geonameId: Int

    /// The language the address is written for (the requested one's base: `zh`), nil for English.
    public var addressLanguage: String?

    /// The address as the language writes it, down to the city (the offline data has no streets): Chinese and
    /// Japanese from the country down without separators (`中国上海市`), Korean from the country down with
    /// spaces (`대한민국 서울특별시`), others `"city, state, country"` (`San Francisco, California, United
    /// States`). The state is left out of the first two unless it is in their script (the data names US states
    /// in English only); missing parts are left out.
    public var formattedAddress: String {
        let parts = [country, state, city].compactMap { $0 }.filter { !$0.isEmpty }
        switch addressLanguage {
        case "zh", "ja":
            return [country, state.flatMap { $0.unicodeScalars.allSatisfy(\.isASCII) ? nil : $0 }, city]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined()
        case "ko":
            return parts.joined(separator: " ")
        default:
            return parts.reversed().joined(separator: ", ")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(city, forKey: .city)
        try c.encode(state, forKey: .state)
        try c.encode(stateCode, forKey: .stateCode)
        try c.encode(country, forKey: .country)
        try c.encode(countryCode, forKey: .countryCode)
        try c.encode(timezone, forKey: .timezone)
        try c.encode(population, forKey: .population)
        try c.encode((distanceKm * 1000).rounded() / 1000, forKey: .distanceKm)
        try c.encode(district, forKey: .district)
        try c.encode(lang, forKey: .lang)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(geonameId, forKey: .geonameId)
    }

    private enum CodingKeys: String, CodingKey {
        case city, state, stateCode, country, countryCode, timezone, population, distanceKm, district, lang
        case latitude, longitude, geonameId
    }
}

/// Offline reverse geocoding over the GeoNames index, loaded lazily on the first query.
///
/// The answer is the nearest populated place within `maxDistanceKm` (default 50 km: the open ocean has
/// no city), except that a more populous place of the same country and first-level division whose
/// estimated urban radius (0.004 km × √population, at most 25 km) covers the point wins — so the Eiffel
/// Tower is in "Paris" (district "Paris 16 Passy"), not in the district alone.
public final class ReverseGeocoder: Sendable {
    /// The default maximum distance from a city's centre.
    public static let defaultMaxDistanceKm = 50.0
    /// Where `scripts/setup.sh` builds the index: `${XDG_DATA_HOME:-~/.local/share}/jsbridge/geonames/cities1000.names2.jsbgeo`
    /// (`names2`: zh, ja and ko names in the locality's suffixed form, `上海市`).
    public static func defaultIndexPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            base = xdg
        } else {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/jsbridge/geonames/cities1000.names2.jsbgeo"
    }

    public let indexPath: String
    private let loaded = Locked<GeonamesIndex?>(nil)
    /// Serialises loading (loading takes a while; concurrent first queries wait for one load).
    private let loading = Locked<Void>(())

    public init(indexPath: String? = nil) {
        self.indexPath = indexPath ?? Self.defaultIndexPath()
    }

    /// Creates a geocoder over an index already in memory.
    public init(index: GeonamesIndex, path: String = "(memory)") {
        self.indexPath = path
        loaded.withLock { $0 = index }
    }

    /// The index, loading it on first use.
    public func index() throws(GeonamesIndexError) -> GeonamesIndex {
        if let index = loaded.withLock({ $0 }) { return index }
        let result: Result<GeonamesIndex, GeonamesIndexError> = loading.withLock { _ in
            if let index = loaded.withLock({ $0 }) { return .success(index) }
            do throws(GeonamesIndexError) {
                let index = try GeonamesIndex(path: indexPath)
                loaded.withLock { $0 = index }
                return .success(index)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Whether the index is in memory.
    public var isLoaded: Bool { loaded.withLock { $0 != nil } }

    /// The city at `point`, or nil when no city lies within `maxDistanceKm`.
    public func city(at point: Coordinate, lang: String? = nil, maxDistanceKm: Double = defaultMaxDistanceKm)
        throws(GeonamesIndexError) -> Place?
    {
        let index = try index()
        guard let (nearest, nearestKm) = index.nearest(to: point, maxDistanceKm: maxDistanceKm) else { return nil }
        var chosen = nearest, chosenKm = nearestKm
        let region = index.region(at: nearest)
        var bestPopulation = index.population(at: nearest)
        for candidate in index.within(point, radiusKm: 25) where index.population(at: candidate) > bestPopulation {
            let km = Geo.distanceKm(point, index.coordinate(at: candidate))
            let urbanRadius = min(25, 0.004 * Double(index.population(at: candidate)).squareRoot())
            if km <= urbanRadius, index.region(at: candidate) == region {
                chosen = candidate
                chosenKm = km
                bestPopulation = index.population(at: candidate)
            }
        }
        let record = index.record(at: chosen)
        let district = chosen == nearest ? nil : index.record(at: nearest).name
        let language = lang.flatMap(Self.baseLanguage)
        let localized = language.flatMap { record.localizedNames[$0] }
        return Place(
            city: localized ?? record.name,
            state: index.admin1Names["\(record.countryCode).\(record.admin1Code)"],
            stateCode: record.admin1Code.isEmpty ? nil : record.admin1Code,
            country: language.flatMap { Self.countryName(record.countryCode, in: $0) }
                ?? index.countries[record.countryCode],
            countryCode: record.countryCode,
            timezone: record.timezone,
            population: record.population,
            distanceKm: chosenKm,
            district: district,
            lang: localized == nil ? nil : language,
            latitude: record.coordinate.latitude,
            longitude: record.coordinate.longitude,
            geonameId: record.geonameID,
            addressLanguage: language)
    }

    /// The name of country `code` in `language` from the system's locale data (CLDR), or nil.
    static func countryName(_ code: String, in language: String) -> String? {
        // Foundation's locale data names CN "China mainland" (中国大陆, 中国本土, China, Festland): the form for
        // contexts that set it apart from Hong Kong and Macau, not the country's name a geocoder answers.
        if code == "CN", let name = china[language] { return name }
        guard let name = Locale(identifier: language).localizedString(forRegionCode: code), !name.isEmpty,
            name != code
        else { return nil }
        return name
    }

    /// China's name in the languages the index localizes and the common Latin-script ones.
    static let china: [String: String] = [
        "zh": "中国", "ja": "中国", "ko": "중국", "ru": "Китай", "ar": "الصين", "he": "סין", "el": "Κίνα", "th": "จีน",
        "hi": "चीन", "ka": "ჩინეთი", "hy": "Չինաստան", "de": "China", "fr": "Chine", "es": "China", "it": "Cina",
        "pt": "China", "nl": "China",
    ]

    /// `zh-Hans-CN` → `zh`; `en`/empty → nil (GeoNames' own names are the English/ASCII ones).
    static func baseLanguage(_ tag: String) -> String? {
        let base = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return base.isEmpty || base == "en" ? nil : base
    }
}

/// The last place and address found for the device's position (IPH's cached results), shared across threads.
public final class LastKnownPlace: Sendable {
    private let state = Locked<(place: Place?, address: String?)>((nil, nil))

    public init() {}

    /// The place and its formatted address (nil until one was found).
    public var value: (place: Place?, address: String?) {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
