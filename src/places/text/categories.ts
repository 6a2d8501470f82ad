/**
 * What people call kinds of places, in one data table: the Vietnamese word, its abbreviations, its English forms,
 * and the OSM category values (the value of amenity/shop/tourism/… a place was tagged with) it names.
 *
 * How it is read (see category-match.ts): a run of query words that spells one of a row's `words` (folded, so
 * "benh vien" is "bệnh viện") or, as a whole word, one of its `abbr` names that row's category; the words are
 * then not required to appear in a place's name, and a place matches when its category is one of `osm` or its name
 * holds one of the row's words. One abbreviation may head several rows ("NH": ngân hàng or nhà hàng): every reading
 * counts, and a place matching any of them matches. In stored names, a row's words mark themselves as words that a
 * query may leave out ("Bệnh viện Bạch Mai" is fully named by "Bạch Mai").
 */

/** One kind of place. */
export interface CategoryRow {
  /** Short stable key. */
  key: string;
  /** Written forms (Vietnamese, English, synonyms), one or more words each; matched folded. */
  words: readonly string[];
  /**
   * Single words that name the category only at the start of a name or query run ("Chùa Một Cột", "Hồ Tây"): inside a
   * name they are mostly other words ("Ba Đình", "Xuân Hồ", "Nguyễn Trường Tộ").
   */
  leading?: readonly string[];
  /** Abbreviations, matched folded and as whole words only. */
  abbr?: readonly string[];
  /** OSM category values of places of this kind. */
  osm: readonly string[];
  /**
   * An unnamed place of this kind is still a place people look for ("cây xăng gần đây"), called `label` (default: the
   * first leading word or word, capitalised); unnamed places of other kinds (a pond, a parking lot) are not places.
   */
  unnamed?: boolean;
  label?: string;
}

/** The table. Order does not matter. */
export const CATEGORIES: readonly CategoryRow[] = [
  {
    key: 'hospital',
    unnamed: true,
    words: ['bệnh viện', 'nhà thương', 'hospital'],
    abbr: ['bv', 'bvđk', 'bvdk'],
    osm: ['hospital'],
  },
  {
    key: 'clinic',
    unnamed: true,
    words: ['phòng khám', 'phòng khám đa khoa', 'clinic', 'polyclinic'],
    abbr: ['pk', 'pkđk', 'pkdk'],
    osm: ['clinic', 'doctors'],
  },
  {
    key: 'health_centre',
    words: ['trung tâm y tế', 'medical centre', 'medical center', 'health centre', 'health center'],
    abbr: ['ttyt'],
    osm: ['hospital', 'clinic', 'doctors'],
  },
  { key: 'health_post', words: ['trạm y tế'], abbr: ['tyt'], osm: ['clinic', 'doctors', 'hospital'] },
  {
    key: 'pharmacy',
    unnamed: true,
    words: ['nhà thuốc', 'hiệu thuốc', 'quầy thuốc', 'pharmacy', 'drugstore'],
    osm: ['pharmacy', 'chemist'],
  },
  { key: 'dentist', words: ['nha khoa', 'dentist', 'dental clinic'], osm: ['dentist'] },
  {
    key: 'university',
    words: ['đại học', 'trường đại học', 'học viện', 'university', 'academy'],
    abbr: ['đh', 'dh', 'đhqg'],
    osm: ['university', 'college'],
  },
  {
    key: 'college',
    words: ['cao đẳng', 'trường cao đẳng', 'college'],
    abbr: ['cđ', 'cd'],
    osm: ['college', 'university'],
  },
  {
    key: 'high_school',
    words: ['trung học phổ thông', 'trường trung học phổ thông', 'trường cấp 3', 'cấp 3', 'high school'],
    abbr: ['thpt', 'pt'],
    osm: ['school'],
  },
  {
    key: 'secondary_school',
    words: ['trung học cơ sở', 'trường trung học cơ sở', 'trường cấp 2', 'cấp 2', 'secondary school'],
    abbr: ['thcs'],
    osm: ['school'],
  },
  {
    key: 'primary_school',
    words: ['tiểu học', 'trường tiểu học', 'trường cấp 1', 'cấp 1', 'primary school'],
    abbr: ['th'],
    osm: ['school'],
  },
  {
    key: 'school',
    words: ['trường học', 'school'],
    leading: ['trường'],
    abbr: ['th'],
    osm: ['school', 'kindergarten', 'college', 'university'],
  },
  {
    key: 'kindergarten',
    words: ['mầm non', 'mẫu giáo', 'nhà trẻ', 'trường mầm non', 'kindergarten', 'preschool'],
    abbr: ['mn'],
    osm: ['kindergarten', 'childcare'],
  },
  {
    key: 'cafe',
    words: ['cà phê', 'cafe', 'café', 'coffee', 'coffee shop', 'caphe', 'quán cà phê', 'quán cafe', 'cafe shop'],
    abbr: ['cf'],
    osm: ['cafe'],
  },
  // A café is a milk tea shop or a tea house when its cuisine says so ("cafe:bubble_tea", data-tools/places/tags.ts),
  // else by its name's words: most cafés serve coffee.
  {
    key: 'tea',
    words: ['trà sữa', 'milk tea', 'bubble tea', 'tea house', 'quán trà'],
    osm: ['cafe:bubble_tea', 'cafe:tea', 'tea'],
  },
  {
    key: 'restaurant',
    words: ['nhà hàng', 'quán ăn', 'restaurant', 'eatery'],
    abbr: ['nh'],
    osm: ['restaurant', 'fast_food', 'food_court'],
  },
  { key: 'bar', words: ['quán bar', 'bar', 'pub', 'quán bia', 'bia hơi', 'beer'], osm: ['bar', 'pub', 'biergarten'] },
  { key: 'bakery', words: ['tiệm bánh', 'bakery'], osm: ['bakery', 'pastry'] },
  { key: 'hotel', words: ['khách sạn', 'hotel'], abbr: ['ks'], osm: ['hotel'] },
  {
    key: 'guest_house',
    words: ['nhà nghỉ', 'nhà khách', 'homestay', 'guest house', 'guesthouse', 'hostel', 'motel'],
    osm: ['guest_house', 'hostel', 'motel', 'apartment'],
  },
  { key: 'market', unnamed: true, words: ['market'], leading: ['chợ'], osm: ['marketplace'], label: 'Chợ' },
  // Not department_store: in Vietnamese OSM data that tag is mostly small shops ("siêu thị Củ Chi" is no grocery).
  { key: 'supermarket', unnamed: true, words: ['siêu thị', 'supermarket'], osm: ['supermarket'] },
  {
    key: 'mall',
    words: ['trung tâm thương mại', 'mall', 'shopping mall', 'shopping centre', 'shopping center'],
    abbr: ['tttm'],
    osm: ['mall', 'department_store'],
  },
  {
    key: 'convenience',
    unnamed: true,
    words: ['cửa hàng tiện lợi', 'tạp hóa', 'tạp hoá', 'convenience store'],
    // A family "tạp hóa" is mapped as a general or variety store, and often as a department store (most of whole
    // HCMC's 540 are shops named after their owners: "Thu phương", "anh kha").
    osm: ['convenience', 'general', 'variety_store', 'department_store'],
  },
  { key: 'bookshop', words: ['nhà sách', 'hiệu sách', 'bookshop', 'bookstore'], osm: ['books'] },
  {
    key: 'station',
    leading: ['ga'],
    words: [
      'nhà ga',
      'ga tàu',
      'ga xe lửa',
      'ga tàu hỏa',
      'ga tàu điện',
      'ga metro',
      'railway station',
      'train station',
      'metro station',
      'station',
      'metro',
    ],
    // A metro line's stations are often mapped only as the stop positions of its trains (railway=stop).
    osm: ['station', 'halt', 'stop'],
  },
  {
    key: 'bus_station',
    words: ['bến xe', 'bến xe khách', 'bus station', 'coach station', 'bus terminal'],
    abbr: ['bx'],
    osm: ['bus_station'],
  },
  {
    key: 'bus_stop',
    words: ['điểm dừng xe buýt', 'trạm xe buýt', 'điểm dừng', 'bus stop'],
    osm: ['bus_stop', 'platform'],
  },
  { key: 'airport', words: ['sân bay', 'cảng hàng không', 'airport'], osm: ['aerodrome', 'terminal'] },
  {
    key: 'townhall',
    words: ['ủy ban nhân dân', 'uỷ ban nhân dân', 'ủy ban', 'uỷ ban', 'town hall'],
    abbr: ['ubnd'],
    osm: ['townhall'],
  },
  { key: 'police', unnamed: true, words: ['công an', 'đồn công an', 'police', 'police station'], osm: ['police'] },
  { key: 'bank', unnamed: true, words: ['ngân hàng', 'bank'], abbr: ['nh'], osm: ['bank'] },
  { key: 'atm', words: ['cây atm', 'máy atm', 'atm', 'cây rút tiền'], osm: ['atm'], unnamed: true, label: 'ATM' },
  { key: 'post_office', unnamed: true, words: ['bưu điện', 'bưu cục', 'post office'], osm: ['post_office'] },
  { key: 'park', words: ['công viên', 'vườn hoa', 'park', 'garden'], abbr: ['cv'], osm: ['park', 'garden'] },
  { key: 'lake', leading: ['hồ'], words: ['lake', 'pond'], osm: ['water', 'lake', 'reservoir', 'pond'] },
  { key: 'waterfall', words: ['thác nước', 'waterfall', 'falls'], leading: ['thác'], osm: ['waterfall'] },
  // Places of worship by religion ("place_of_worship:buddhist", see data-tools/places/tags.ts); one of unknown
  // religion may be any of them (its name tells: see place-categories.ts).
  {
    key: 'pagoda',
    leading: ['chùa'],
    words: ['thiền viện', 'tịnh xá', 'niệm phật đường', 'pagoda', 'temple'],
    osm: ['place_of_worship', 'place_of_worship:buddhist', 'monastery'],
  },
  {
    key: 'temple',
    leading: ['đền', 'đình', 'miếu', 'phủ'],
    words: ['temple', 'shrine'],
    osm: [
      'place_of_worship',
      'place_of_worship:taoist',
      'place_of_worship:confucian',
      'place_of_worship:vietnamese_folk',
      'place_of_worship:folk',
      'place_of_worship:hindu',
      'shrine',
      'temple',
    ],
  },
  {
    key: 'church',
    // A parish is called by its church ("Giáo xứ Thanh Đa" is Nhà thờ Thanh Đa).
    words: ['nhà thờ', 'thánh đường', 'giáo xứ', 'church', 'cathedral'],
    osm: ['place_of_worship', 'place_of_worship:christian', 'church', 'cathedral'],
  },
  { key: 'museum', words: ['bảo tàng', 'museum'], abbr: ['bt'], osm: ['museum', 'gallery'] },
  {
    key: 'theatre',
    words: ['nhà hát', 'rạp hát', 'theatre', 'theater', 'opera house'],
    osm: ['theatre', 'arts_centre'],
  },
  { key: 'cinema', words: ['rạp chiếu phim', 'rạp phim', 'cinema', 'movie theater'], osm: ['cinema'] },
  { key: 'library', words: ['thư viện', 'library'], osm: ['library'] },
  {
    key: 'stadium',
    words: ['sân vận động', 'stadium'],
    abbr: ['svđ', 'svd'],
    osm: ['stadium', 'sports_centre', 'pitch'],
  },
  {
    key: 'fuel',
    unnamed: true,
    words: ['trạm xăng', 'cây xăng', 'cửa hàng xăng dầu', 'petrol station', 'gas station', 'fuel station'],
    osm: ['fuel'],
  },
  {
    key: 'parking',
    words: [
      'bãi đỗ xe',
      'bãi gửi xe',
      'bãi giữ xe',
      'giữ xe',
      'gửi xe',
      'bãi xe',
      'điểm trông giữ xe',
      'parking',
      'car park',
    ],
    osm: ['parking', 'motorcycle_parking', 'bicycle_parking'],
  },
  {
    key: 'embassy',
    words: ['đại sứ quán', 'lãnh sự quán', 'embassy', 'consulate'],
    abbr: ['đsq', 'dsq', 'lsq'],
    osm: ['embassy', 'diplomatic'],
  },
  { key: 'gym', words: ['phòng gym', 'phòng tập', 'gym', 'fitness'], osm: ['fitness_centre', 'sports_centre'] },
  // Errands of every day, in the words people use for them (at most CATEGORY_ROWS rows, row-mask.ts: a kind is added
  // where its words and tags are precise — "quán cơm" and "quán nhậu" are not).
  {
    key: 'vehicle_repair',
    words: ['sửa xe', 'sửa xe máy', 'tiệm sửa xe', 'rửa xe', 'motorbike repair', 'car wash'],
    osm: ['motorcycle_repair', 'car_wash'],
  },
  { key: 'jewelry', words: ['tiệm vàng', 'tiệm kim hoàn', 'jewelry', 'jewellery', 'gold shop'], osm: ['jewelry'] },
  {
    key: 'hairdresser',
    words: ['cắt tóc', 'hớt tóc', 'tiệm tóc', 'salon tóc', 'hair salon', 'barber', 'hairdresser'],
    osm: ['hairdresser', 'barber'],
  },
  {
    key: 'laundry',
    words: ['giặt ủi', 'giặt là', 'tiệm giặt', 'giặt sấy', 'laundry', 'dry cleaning'],
    osm: ['laundry', 'dry_cleaning'],
  },
  {
    key: 'phone_shop',
    words: ['điện thoại', 'cửa hàng điện thoại', 'phone shop', 'mobile phone shop'],
    osm: ['mobile_phone'],
  },
  { key: 'stationery', words: ['văn phòng phẩm', 'stationery'], abbr: ['vpp'], osm: ['stationery'] },
  {
    key: 'copyshop',
    words: ['photocopy', 'photo copy', 'in ấn', 'tiệm in', 'tiệm photo', 'copy shop'],
    osm: ['copyshop', 'printing'],
  },
  // Shops and services asked for by what they sell or do ("shop quần áo quận 1", "thú y gò vấp"): the words name the
  // trade, not a word of the shop's name (a lone "hoa", "kính" or "club" names many other things). "shop", "tiệm" or
  // "cửa hàng" before a kind's words is read with them (category-match.ts SHOP_WORDS).
  {
    key: 'clothes',
    // "nam" and "nữ" after the kind say whose clothes ("quần áo nữ"), not a word of a name.
    words: [
      'quần áo',
      'quần áo nam',
      'quần áo nữ',
      'thời trang',
      'thời trang nam',
      'thời trang nữ',
      'clothes',
      'clothing',
      'clothes shop',
      'clothing store',
      'fashion',
      'boutique',
    ],
    osm: ['clothes', 'fashion', 'boutique'],
  },
  {
    key: 'shoes',
    words: ['giày', 'giày dép', 'shoes', 'shoe shop', 'shoe store'],
    osm: ['shoes'],
  },
  {
    key: 'electronics',
    words: ['điện máy', 'siêu thị điện máy', 'điện lạnh', 'electronics', 'electronics store'],
    osm: ['electronics', 'appliance', 'hifi'],
  },
  {
    key: 'computer',
    words: ['máy tính', 'laptop', 'computer shop', 'computer store'],
    osm: ['computer'],
  },
  {
    key: 'optician',
    words: ['mắt kính', 'kính mắt', 'tiệm kính', 'optician', 'optical shop', 'eyewear'],
    osm: ['optician'],
  },
  // A spa, a beauty salon and a nail salon are one family (place-categories.ts): OSM tags all three shop=beauty, and a
  // name says which one a place is.
  {
    key: 'spa',
    words: ['spa', 'massage', 'mát xa', 'xông hơi', 'sauna'],
    osm: ['massage', 'spa', 'sauna'],
  },
  {
    key: 'beauty',
    words: ['thẩm mỹ viện', 'thẩm mỹ', 'làm đẹp', 'beauty salon', 'beauty'],
    abbr: ['tmv'],
    osm: ['beauty'],
  },
  { key: 'nail', words: ['nail', 'làm nail', 'nail salon', 'nails'], osm: [] },
  {
    key: 'cosmetics',
    words: ['mỹ phẩm', 'nước hoa', 'cosmetics', 'cosmetics store', 'cosmetics shop', 'perfume'],
    osm: ['cosmetics', 'perfumery'],
  },
  {
    key: 'community_centre',
    words: [
      'nhà văn hóa',
      'nhà văn hoá',
      'cung văn hóa',
      'cung văn hoá',
      'nhà thiếu nhi',
      'community centre',
      'community center',
    ],
    abbr: ['nvh'],
    osm: ['community_centre'],
  },
  {
    key: 'veterinary',
    words: [
      'thú y',
      'phòng khám thú y',
      'bệnh viện thú y',
      'vet',
      'veterinary',
      'veterinarian',
      'vet clinic',
      'pet clinic',
      'pet hospital',
    ],
    osm: ['veterinary'],
  },
  { key: 'pet', words: ['thú cưng', 'pet shop'], osm: ['pet'] },
  {
    key: 'car_dealer',
    // "oto" is how "ô tô" is typed without marks, as one word.
    words: [
      'showroom ô tô',
      'showroom oto',
      'đại lý ô tô',
      'đại lý oto',
      'đại lý xe hơi',
      'car dealer',
      'car showroom',
    ],
    osm: ['car'],
  },
  {
    key: 'motorcycle_dealer',
    words: ['đại lý xe máy', 'cửa hàng xe máy', 'motorbike shop', 'motorcycle dealer', 'motorcycle shop'],
    osm: ['motorcycle'],
  },
  {
    key: 'furniture',
    words: ['nội thất', 'đồ gỗ', 'furniture', 'furniture store'],
    osm: ['furniture', 'interior_decoration'],
  },
  {
    key: 'hardware',
    words: ['vật liệu xây dựng', 'điện nước', 'ngũ kim', 'kim khí', 'hardware', 'hardware store'],
    abbr: ['vlxd'],
    osm: ['hardware', 'doityourself', 'trade', 'paint'],
  },
  {
    key: 'florist',
    words: ['shop hoa', 'tiệm hoa', 'cửa hàng hoa', 'hoa tươi', 'điện hoa', 'florist', 'flower shop'],
    osm: ['florist'],
  },
  {
    key: 'toys',
    words: ['đồ chơi', 'mẹ và bé', 'toys', 'toy shop', 'toy store', 'baby shop'],
    osm: ['toys', 'baby_goods'],
  },
  { key: 'tailor', words: ['tiệm may', 'may đo', 'thợ may', 'tailor'], osm: ['tailor'] },
  // Bars, nightclubs and karaoke are one family (place-categories.ts): OSM tags many a karaoke or bar a nightclub.
  { key: 'karaoke', words: ['karaoke', 'quán karaoke', 'phòng hát'], osm: ['karaoke_box', 'karaoke'] },
  { key: 'nightclub', words: ['vũ trường', 'hộp đêm', 'nightclub', 'night club'], osm: ['nightclub'] },
  {
    key: 'travel_agency',
    words: [
      'phòng vé',
      'phòng vé máy bay',
      'vé máy bay',
      'đại lý vé máy bay',
      'đại lý du lịch',
      'công ty du lịch',
      'travel agency',
      'travel agent',
    ],
    osm: ['travel_agency', 'travel_agent', 'ticket'],
  },
  {
    key: 'bicycle',
    words: ['xe đạp', 'bicycle shop', 'bike shop'],
    osm: ['bicycle'],
  },
  {
    key: 'rental',
    words: [
      'thuê xe',
      'thuê xe máy',
      'cho thuê xe',
      'cho thuê xe máy',
      'thuê ô tô',
      'car rental',
      'motorbike rental',
      'bike rental',
    ],
    osm: ['car_rental', 'motorcycle_rental', 'bicycle_rental', 'scooter_rental'],
  },
  {
    key: 'toilets',
    unnamed: true,
    words: ['nhà vệ sinh', 'nhà vệ sinh công cộng', 'toilet', 'toilets', 'public toilet', 'restroom'],
    abbr: ['wc'],
    osm: ['toilets'],
  },
  { key: 'cemetery', words: ['nghĩa trang', 'nghĩa địa', 'cemetery', 'graveyard'], osm: ['cemetery', 'grave_yard'] },
  { key: 'courthouse', words: ['tòa án', 'toà án', 'courthouse'], abbr: ['tand'], osm: ['courthouse'] },
  {
    key: 'fire_station',
    words: ['phòng cháy chữa cháy', 'cứu hỏa', 'cứu hoả', 'đội cứu hỏa', 'fire station'],
    abbr: ['pccc'],
    osm: ['fire_station'],
  },
  {
    key: 'swimming_pool',
    unnamed: true,
    words: ['hồ bơi', 'bể bơi', 'swimming pool'],
    osm: ['swimming_pool', 'water_park'],
  },
  {
    key: 'pitch',
    unnamed: true,
    words: [
      'sân bóng',
      'sân bóng đá',
      'sân banh',
      'sân cỏ nhân tạo',
      'football field',
      'football pitch',
      'soccer field',
    ],
    osm: ['pitch'],
  },
  { key: 'monument', words: ['tượng đài', 'đài tưởng niệm', 'monument', 'memorial'], osm: ['monument', 'memorial'] },
  // A mausoleum is a tomb ("Lăng Ông Bà Chiểu", historic=tomb), not a statue of the one it holds.
  { key: 'tomb', leading: ['lăng'], words: ['mausoleum', 'tomb'], osm: ['tomb', 'mausoleum'] },
  {
    // Named after what meets there ("Ngã tư Bình Phước", "Vòng xoay Dân Chủ"): a kind and a unit's name read as one.
    // Saigon's roundabouts are mapped as squares ("Công trường Dân Chủ" is the Dân Chủ roundabout).
    key: 'junction',
    words: [
      'ngã tư',
      'ngã ba',
      'ngã năm',
      'ngã sáu',
      'ngã bảy',
      'vòng xoay',
      'bùng binh',
      'công trường',
      'nút giao',
      'giao lộ',
    ],
    leading: ['intersection', 'roundabout', 'junction'],
    osm: ['junction'],
  },
  // A square is mapped as a pedestrian area ("Quảng trường Ba Đình"); written out, the words ask for one, and a place
  // named only by the rest ("Quang Trung" one letter off "quang truong") is not what was asked.
  { key: 'square', words: ['quảng trường'], osm: ['pedestrian', 'square'] },
  // A ferry's landing ("bến phà Cát Lái"), mapped as its terminal or the ferry's route; "phà" alone leads no kind:
  // "Phà Cát Lái" is also a road to the landing, which "Cát Lái" alone must not name.
  {
    key: 'ferry',
    words: ['bến phà', 'ferry', 'ferry terminal', 'ferry pier'],
    osm: ['ferry_terminal', 'ferry'],
  },
  {
    // Bridges are mostly roads named "Cầu X" ("Cầu Sài Gòn" is the bridge, not some place called Cầu in the city).
    key: 'bridge',
    leading: ['cầu'],
    words: ['cây cầu', 'bridge'],
    osm: ['bridge'],
  },
];
